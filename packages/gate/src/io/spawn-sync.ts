import { childProcess } from './lazy-builtins.js';

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

/**
 * Runs `file` with `args` to its end, stdin from `input` (or nothing), stdout and stderr kept:
 * `child_process.spawnSync` with pipes, loaded on the first call (see lazy-builtins.ts).
 */
export function spawnToEnd(file: string, args: readonly string[], options: SpawnOptions): FinishedProcess {
  const result = childProcess().spawnSync(file, args, {
    cwd: options.cwd,
    env: options.env,
    input: options.input,
    maxBuffer: options.maxBuffer,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ...(result.error === undefined ? {} : { error: result.error }) };
}
