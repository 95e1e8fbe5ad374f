import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { normalizeRepoPath } from '@holdfast/core/rules';

/** The project root as the file system knows it, so every judged path is compared on the same footing. */
export interface ProjectRoot {
  /** The root as the agent named it (state and the audit log live under it). */
  readonly root: string;
  /** realpath(root). */
  readonly realRoot: string;
  /** Whether the volume ignores case (`SRC/a.ts` is `src/a.ts`): names are then matched against the directory listing. */
  readonly caseInsensitive: boolean;
}

/** A path after every symlink, `..` and case difference the file system would apply. */
export interface ResolvedPath {
  /** Relative to the real root, POSIX separators; `../…` when it lands outside the root. */
  readonly repoPath: string;
  readonly absolute: string;
}

const MAX_LINK_HOPS = 40;

function swapCase(text: string): string {
  let swapped = '';
  for (const char of text) swapped += char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
  return swapped;
}

/** A volume ignores case when the root's own name with its case swapped is the same directory. */
function detectCaseInsensitive(realRoot: string): boolean {
  for (let folder = realRoot; folder !== dirname(folder); folder = dirname(folder)) {
    const name = basename(folder);
    const swapped = swapCase(name);
    if (swapped === name) continue;
    try {
      const original = statSync(folder);
      const other = statSync(join(dirname(folder), swapped));
      return original.ino === other.ino && original.dev === other.dev;
    } catch {
      return false;
    }
  }
  return false;
}

export function projectRoot(root: string, options: { caseInsensitive?: boolean } = {}): ProjectRoot {
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    realRoot = root;
  }
  return { root, realRoot, caseInsensitive: options.caseInsensitive ?? detectCaseInsensitive(realRoot) };
}

/** The directory entry a name means on a case-insensitive volume: the exact one if present, else the one equal ignoring case. */
function onDiskName(folder: string, name: string): string {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return name;
  }
  if (entries.includes(name)) return name;
  const folded = name.toLowerCase();
  return entries.find((entry) => entry.toLowerCase() === folded) ?? name;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * Walks a path one name at a time the way the kernel does: a symbolic link is replaced by its
 * target before the next name is read (so `src/up/..` with `src/up -> ..` leaves the root), `..`
 * climbs from where the walk really is, and a name that does not exist yet ends the lookups.
 * `keepLastLink` is for deletes: `rm link` removes the link, not what it points at.
 */
export function resolveOnDisk(project: ProjectRoot, path: string, keepLastLink: boolean): ResolvedPath {
  let current = isAbsolute(path) ? '/' : project.realRoot;
  let pending = path.split('/');
  let hops = 0;
  let exists = true;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const name = exists && project.caseInsensitive ? onDiskName(current, part) : part;
    const next = join(current, name);
    current = next;
    if (!exists) continue;
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      exists = false;
      continue;
    }
    if (!isLink || (keepLastLink && pending.length === 0) || hops >= MAX_LINK_HOPS) continue;
    hops += 1;
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      continue;
    }
    current = isAbsolute(target) ? '/' : dirname(next);
    pending = [...target.split(/[\\/]/), ...pending];
  }
  const repoPath = toPosix(relative(project.realRoot, current)) || '.';
  return { repoPath: isAbsolute(repoPath) ? toPosix(current) : repoPath, absolute: current };
}

/** What the resolution changed, for the deny reason: the agent wrote one path and the file system means another. */
export interface PathNote {
  readonly written: string;
  readonly resolved: string;
}

/**
 * Every write and delete path of a call resolved against the real file system. Paths the rules
 * refuse as text (a backslash, a control character, a look-alike slash) are left as written so
 * the scope rule names the trick; everything else is judged where it really lands.
 */
export function resolveActionPaths(actions: readonly Action[], project: ProjectRoot): { actions: Action[]; notes: PathNote[] } {
  const notes: PathNote[] = [];
  const resolved = actions.map((action): Action => {
    if (action.type !== 'write' && action.type !== 'delete') return action;
    const lexical = normalizeRepoPath(action.path);
    if (!lexical.ok && !lexical.reason.includes('"..') && !lexical.reason.includes('absolute')) return action;
    const { repoPath } = resolveOnDisk(project, action.path, action.type === 'delete');
    if (repoPath === action.path || (lexical.ok && lexical.path === repoPath)) return action;
    if (!notes.some((note) => note.written === action.path)) notes.push({ written: action.path, resolved: repoPath });
    return { ...action, path: repoPath };
  });
  return { actions: resolved, notes };
}

export function describePathNotes(notes: readonly PathNote[]): string {
  return notes.map((note) => `"${note.written}" is "${note.resolved}" on disk (symbolic links, ".." and case resolved).`).join(' ');
}
