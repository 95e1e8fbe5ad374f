import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, posix, resolve, sep } from 'node:path';

export type ConfinedPath = { readonly ok: true; readonly relative: string; readonly absolute: string } | { readonly ok: false; readonly reason: string };

function inside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function missing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Where a model's path really points inside the sandbox, or why it may not be touched. `root` must
 * already be a real path. Every existing ancestor is resolved through its symlinks, so a link the
 * model planted earlier in the round (through a command it ran) cannot carry a write outside.
 * `.git` anywhere is refused: the repository's own machinery is not the model's to edit.
 */
export function confinePath(root: string, path: string): ConfinedPath {
  if (path.length === 0) return { ok: false, reason: 'the path is empty' };
  if (path.includes('\0')) return { ok: false, reason: 'the path contains a NUL character' };
  if (path.includes('\\')) return { ok: false, reason: 'the path contains a backslash' };
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return { ok: false, reason: 'the path is absolute' };
  const normalized = posix.normalize(path);
  if (normalized === '..' || normalized.startsWith('../')) return { ok: false, reason: 'the path leads out of the repository with ..' };
  if (normalized === '.' || normalized.endsWith('/')) return { ok: false, reason: 'the path names the repository or a folder, not a file' };
  const parts = normalized.split('/');
  if (parts.some((part) => part.toLowerCase() === '.git')) return { ok: false, reason: 'the path is inside .git' };

  let current = root;
  for (const [position, part] of parts.entries()) {
    const next = resolve(current, part);
    const last = position === parts.length - 1;
    let stats;
    try {
      stats = lstatSync(next);
    } catch (error) {
      if (missing(error)) return { ok: true, relative: normalized, absolute: resolve(current, ...parts.slice(position)) };
      throw error;
    }
    if (stats.isSymbolicLink()) {
      const target = resolve(dirname(next), readlinkSync(next));
      let real = target;
      try {
        real = realpathSync(target);
      } catch (error) {
        if (!missing(error)) throw error;
      }
      if (!inside(root, real)) {
        return { ok: false, reason: `${parts.slice(0, position + 1).join('/')} is a symlink that points outside the repository` };
      }
      // A final symlink that stays inside is replaced by the write, never followed.
      if (last) return { ok: true, relative: normalized, absolute: next };
      current = real;
      continue;
    }
    if (!last && !stats.isDirectory()) return { ok: false, reason: `${parts.slice(0, position + 1).join('/')} is a file, not a folder` };
    current = next;
  }
  return { ok: true, relative: normalized, absolute: current };
}
