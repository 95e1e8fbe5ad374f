import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { InputError } from '@holdfast/core/contract';

/** A second writer of a run file that is being written: it would interleave or double rounds. */
export class RunFileLockedError extends InputError {
  readonly holder: number;

  constructor(path: string, holder: number) {
    super(
      'E_RUN_FILE_LOCKED',
      `${path} is being written by process ${holder} (lock file ${lockPathOf(path)}): two writers would double some rounds and drop others. Wait for it to end, or stop it; a lock left by a process that no longer runs is taken over.`,
    );
    this.holder = holder;
  }
}

export interface RunFileLock {
  release(): void;
}

export interface LockOptions {
  readonly pid?: number;
  /** Whether a process runs; injectable so a stale lock can be tested without a dead process. */
  readonly isAlive?: (pid: number) => boolean;
}

export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Refuses early when a live process holds the run file's lock (RunFileLockedError), so a second
 * writer stops before it reads replies or resolves targets. Only a first look: the writer still
 * takes the lock itself (lockRunFile), which is what keeps two writers apart.
 */
export function refuseIfLocked(path: string, isAlive: (pid: number) => boolean = processIsAlive): void {
  const holder = holderOf(lockPathOf(path));
  if (holder !== undefined && isAlive(holder)) throw new RunFileLockedError(path, holder);
}

/**
 * Takes the one-writer lock of a run file: `FILE.lock`, created exclusively, holding the writer's
 * pid. A lock whose process no longer runs (a crash, kill -9) is taken over; a live holder gets a
 * RunFileLockedError naming its pid.
 */
export function lockRunFile(path: string, options: LockOptions = {}): RunFileLock {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  const lockPath = lockPathOf(path);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let descriptor: number;
    try {
      descriptor = openSync(lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      refuseIfLocked(path, isAlive);
      // Stale (its process is gone) or half-written by a writer that died creating it: take it over.
      try {
        unlinkSync(lockPath);
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
      }
      continue;
    }
    writeSync(descriptor, `${pid}\n`);
    closeSync(descriptor);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        if (holderOf(lockPath) === pid) unlinkSync(lockPath);
      },
    };
  }
  throw new RunFileLockedError(path, holderOf(lockPath) ?? 0);
}
