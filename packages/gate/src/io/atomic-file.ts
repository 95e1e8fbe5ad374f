import { chmodSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { sep } from 'node:path';

let made = 0;

/**
 * A suffix no other live process uses, for temporary files beside their target: the process id, a
 * count and a random part. It is not a secret: every temporary file is created exclusively (O_EXCL), so
 * a file or link planted under a guessed name makes the create fail instead of being written through.
 * (node:crypto is not loaded for it: a hook is a process per tool call, and loading crypto costs more
 * than most decisions.)
 */
export function uniqueSuffix(): string {
  made += 1;
  return `${process.pid}.${made}${Math.random().toString(36).slice(2, 8)}`;
}

/** Runs `create` with fresh temporary names until one is free (a name taken by a stray file is skipped). */
export function withTemporaryName<T>(base: string, create: (temporary: string) => T): T {
  for (let attempt = 1; ; attempt += 1) {
    const temporary = `${base}.${uniqueSuffix()}.tmp`;
    try {
      return create(temporary);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw error;
    }
  }
}

/** Written to a temporary file beside the target and renamed, so a reader never sees half of it. */
export function writeAtomically(path: string, content: string | Buffer, mode?: number): void {
  const temporary = withTemporaryName(path, (name) => {
    writeFileSync(name, content, { flag: 'wx' });
    return name;
  });
  if (mode !== undefined) chmodSync(temporary, mode);
  renameSync(temporary, path);
}

/**
 * Removes a file; one that is not there is no error. `fs.rmSync` does the same but loads node's
 * rimraf module on first use, which a hook process (one per tool call) would pay for on every call.
 */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
