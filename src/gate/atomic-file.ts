import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { sep } from 'node:path';
import { nodeCrypto } from './lazy-builtins.js';

/** A suffix no other process uses at the same time, for temporary files beside their target. */
export function uniqueSuffix(): string {
  return `${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}`;
}

/** Written to a temporary file beside the target and renamed, so a reader never sees half of it. */
export function writeAtomically(path: string, content: string | Buffer, mode?: number): void {
  const temporary = `${path}.${uniqueSuffix()}.tmp`;
  writeFileSync(temporary, content);
  if (mode !== undefined) chmodSync(temporary, mode);
  renameSync(temporary, path);
}

export function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
