import { childProcess, nodeUtil } from './lazy-builtins.js';

/** A program run to its end: what `child_process.spawnSync` returns with buffers, reduced to what the gate reads. */
export interface FinishedProcess {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** The program could not be started (or its output outgrew maxBuffer). */
  readonly error?: Error;
}

export interface SpawnOptions {
  /** Where it runs; this process's folder when not given. */
  readonly cwd?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly input?: string | Buffer | undefined;
  readonly maxBuffer: number;
}

interface RawResult {
  readonly status?: number | null;
  readonly output?: readonly (Buffer | null)[] | null;
  readonly error?: number;
}

interface SpawnSyncBinding {
  spawn(options: object): RawResult;
}

let raw: SpawnSyncBinding | null | undefined;

/**
 * The binding `child_process.spawnSync` itself calls (node's `spawn_sync`, reachable through
 * `process.binding`, deprecated in documentation only). Loading node:child_process for one
 * spawnSync costs a hook process about 10 ms of CPU (it brings net and the stream stack); the binding
 * costs nothing. Where it is not there, or using it would print a deprecation warning, this is null
 * and the public API is used.
 */
function spawnSyncBinding(): SpawnSyncBinding | null {
  if (raw !== undefined) return raw;
  raw = null;
  const pending = process.execArgv.includes('--pending-deprecation') || (process.env.NODE_OPTIONS ?? '').includes('--pending-deprecation');
  const binding = (process as { binding?: (name: string) => unknown }).binding;
  if (pending || typeof binding !== 'function') return raw;
  try {
    const candidate = binding.call(process, 'spawn_sync') as Partial<SpawnSyncBinding> | undefined;
    if (typeof candidate?.spawn === 'function') raw = candidate as SpawnSyncBinding;
  } catch {
    // not allowed here (a permission model, a node without it): the public API it is
  }
  return raw;
}

/** Whether spawnToEnd goes through node's binding here (else through node:child_process). */
export function spawnsThroughBinding(): boolean {
  return spawnSyncBinding() !== null;
}

function errnoError(errno: number, file: string): Error {
  const name = nodeUtil().getSystemErrorName(errno);
  return Object.assign(new Error(`spawnSync ${file} ${name}`), { code: name, errno, path: file });
}

/**
 * Runs `file` with `args` to its end, stdin from `input` (or nothing), stdout and stderr kept:
 * `child_process.spawnSync` with pipes, through its binding when that is there (see spawnSyncBinding).
 */
export function spawnToEnd(file: string, args: readonly string[], options: SpawnOptions): FinishedProcess {
  const binding = spawnSyncBinding();
  if (binding === null) {
    const result = childProcess().spawnSync(file, args, {
      cwd: options.cwd,
      env: options.env,
      input: options.input,
      maxBuffer: options.maxBuffer,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, ...(result.error === undefined ? {} : { error: result.error }) };
  }
  const envPairs: string[] = [];
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) envPairs.push(`${name}=${value}`);
  const input = options.input === undefined ? undefined : typeof options.input === 'string' ? Buffer.from(options.input) : options.input;
  const result = binding.spawn({
    file,
    args: [file, ...args],
    cwd: options.cwd,
    envPairs,
    maxBuffer: options.maxBuffer,
    detached: false,
    windowsHide: false,
    windowsVerbatimArguments: false,
    stdio: [
      { type: 'pipe', readable: true, writable: false, ...(input === undefined ? {} : { input }) },
      { type: 'pipe', readable: false, writable: true },
      { type: 'pipe', readable: false, writable: true },
    ],
  });
  const stdout = result.output?.[1] ?? Buffer.alloc(0);
  const stderr = result.output?.[2] ?? Buffer.alloc(0);
  if (typeof result.error === 'number') return { status: result.status ?? null, stdout, stderr, error: errnoError(result.error, file) };
  return { status: result.status ?? null, stdout, stderr };
}
