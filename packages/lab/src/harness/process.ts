import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { CappedBuffer } from '../sandbox/index.js';
import type { CappedText } from '@holdfast/core/contract';

export interface HarnessProcessOptions {
  readonly file: string;
  readonly args: readonly string[];
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  readonly stdin?: string;
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
  /** Sees each stdout line as it arrives; a returned text stops the harness with that reason (the turn cap). */
  readonly onLine?: (line: string) => string | undefined;
  /** Asked every `everyMs` while the harness runs; a returned text stops it with that reason (the sandbox's size cap). */
  readonly watch?: { readonly everyMs: number; readonly check: () => string | undefined };
}

/** How the harness process ended. Its stdout is kept whole up to a cap (the JSON result is at the end). */
export interface HarnessExit {
  readonly exitCode?: number;
  readonly signal?: string;
  readonly timedOut: boolean;
  /** Why holdfast stopped it before it ended on its own (turn cap, cancellation). */
  readonly stoppedBecause?: string;
  readonly spawnError?: string;
  readonly stdout: string;
  readonly stdoutTruncated: boolean;
  readonly stderr: CappedText;
  readonly durationMs: number;
}

function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** How long stdio may stay open after the harness exits (a tool's grandchild holding the pipe). */
const DRAIN_MS = 2_000;

/**
 * Runs one harness to its end in its own process group: a timeout, a stop from `onLine` or a
 * cancellation kills the whole tree (the agent's own shell commands included).
 */
export function runHarnessProcess(options: HarnessProcessOptions): Promise<HarnessExit> {
  const started = performance.now();
  const stderr = new CappedBuffer(16 * 1024);
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stdoutTruncated = false;
  let pending = '';
  return new Promise((resolve) => {
    let timedOut = false;
    let stoppedBecause: string | undefined;
    let settled = false;
    const child = spawn(options.file, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const stop = (reason: string) => {
      stoppedBecause ??= reason;
      killTree(child);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop(`it was still running after the ${Math.round(options.timeoutMs / 1000)} s timeout`);
    }, options.timeoutMs);
    const watcher =
      options.watch === undefined
        ? undefined
        : setInterval(() => {
            const reason = options.watch!.check();
            if (reason !== undefined) stop(reason);
          }, options.watch.everyMs);
    const onAbort = () => stop('the run was cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const lines = (text: string) => {
      if (options.onLine === undefined) return;
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const reason = options.onLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (reason !== undefined) stop(reason);
        newline = pending.indexOf('\n');
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes + chunk.length > options.outputCapBytes) stdoutTruncated = true;
      else stdout.push(chunk);
      stdoutBytes += chunk.length;
      lines(chunk.toString('utf8'));
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    const finish = (result: Pick<HarnessExit, 'exitCode' | 'signal' | 'spawnError'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watcher);
      options.signal?.removeEventListener('abort', onAbort);
      if (pending !== '' && options.onLine !== undefined) options.onLine(pending);
      killTree(child);
      resolve({
        ...result,
        timedOut,
        ...(stoppedBecause !== undefined ? { stoppedBecause } : {}),
        stdout: Buffer.concat(stdout).toString('utf8'),
        stdoutTruncated,
        stderr: stderr.result(),
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.on('error', (error) => finish({ spawnError: error.message }));
    child.on('exit', (code, signal) => {
      const result = { ...(code !== null ? { exitCode: code } : {}), ...(signal !== null ? { signal } : {}) };
      const drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(result);
      }, DRAIN_MS);
      child.on('close', () => {
        clearTimeout(drain);
        finish(result);
      });
    });
    if (options.signal?.aborted === true) stop('the run was cancelled');
  });
}
