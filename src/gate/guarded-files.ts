import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { toSlashes, writeAtomically } from './atomic-file.js';
import { nodeCrypto } from './lazy-builtins.js';
import { SnapshotError, runGit } from './git-process.js';
import type { RepoLocation } from './repo-state.js';
import { HOLDFAST_DIR } from './session-state.js';
import { SNAPSHOT_STORE, snapshotStorePath } from './snapshot-store.js';

/** holdfast's own files under `.holdfast/`: written by the gate itself, so never tampering. */
export const HOLDFAST_OWN_FILES: readonly string[] = ['audit.jsonl', 'sessions', 'cache', '.gitignore', SNAPSHOT_STORE];

/** Guarded folders are small (settings, hooks); more entries than this is refused rather than read. */
const MAX_GUARDED_ENTRIES = 20_000;

/** A file outside the snapshot tree that the gate watches for tampering, with its content stored as a blob. */
export interface GuardedFile {
  readonly blob: string;
  readonly kind: 'file' | 'executable' | 'symlink';
}

/** Root-relative path → guarded file. */
export type GuardedFiles = Readonly<Record<string, GuardedFile>>;

function blobId(content: Buffer): string {
  return nodeCrypto().createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function objectPath(store: string, id: string): string {
  return join(store, 'objects', id.slice(0, 2), id.slice(2));
}

/** The folders and files watched for tampering, as absolute paths. */
export function guardedRoots(root: string, repo: RepoLocation | null): string[] {
  const roots = ['.claude', '.codex', HOLDFAST_DIR].map((folder) => join(root, folder));
  if (repo !== null) roots.push(join(repo.commonDir, 'config'), join(repo.commonDir, 'hooks'));
  return roots;
}

function isHoldfastOwn(root: string, absolute: string): boolean {
  const inside = relative(join(root, HOLDFAST_DIR), absolute);
  if (inside === '' || inside.startsWith('..')) return false;
  const first = inside.split(sep)[0] ?? '';
  // The store is built beside its final name (`snapshots.git.<pid>.<id>.tmp`) before it is renamed.
  return HOLDFAST_OWN_FILES.includes(first) || first.startsWith(`${SNAPSHOT_STORE}.`);
}

interface FoundFile {
  readonly absolute: string;
  readonly kind: GuardedFile['kind'];
}

function collectGuarded(root: string, start: string, found: Map<string, FoundFile>): void {
  const pending = [start];
  while (pending.length > 0) {
    const absolute = pending.pop() as string;
    if (isHoldfastOwn(root, absolute)) continue;
    let stats;
    try {
      stats = lstatSync(absolute);
    } catch {
      continue;
    }
    if (found.size + pending.length > MAX_GUARDED_ENTRIES) {
      throw new SnapshotError('E_SNAPSHOT_GUARDED', `more than ${MAX_GUARDED_ENTRIES} entries under the watched folders (${start}); the gate cannot watch them for tampering`);
    }
    const path = toSlashes(relative(root, absolute));
    if (stats.isSymbolicLink()) found.set(path, { absolute, kind: 'symlink' });
    else if (stats.isFile()) found.set(path, { absolute, kind: (stats.mode & 0o111) !== 0 ? 'executable' : 'file' });
    else if (stats.isDirectory()) {
      for (const name of readdirSync(absolute)) pending.push(join(absolute, name));
    }
  }
}

/** Hashes the guarded files and writes the blobs the store does not have yet (one git call at most). */
export function captureGuarded(root: string, store: string, repo: RepoLocation | null): GuardedFiles {
  const found = new Map<string, FoundFile>();
  for (const start of guardedRoots(root, repo)) collectGuarded(root, start, found);
  const guarded: Record<string, GuardedFile> = {};
  const missing: { path: string; content: Buffer }[] = [];
  for (const [path, file] of [...found.entries()].sort(([left], [right]) => (left < right ? -1 : 1))) {
    let content: Buffer;
    try {
      content = file.kind === 'symlink' ? Buffer.from(readlinkSync(file.absolute)) : readFileSync(file.absolute);
    } catch {
      continue;
    }
    const blob = blobId(content);
    guarded[path] = { blob, kind: file.kind };
    if (!existsSync(objectPath(store, blob))) missing.push({ path, content });
  }
  for (const { path, content } of missing) {
    const written = runGit(['hash-object', '-w', '--no-filters', '--stdin'], { cwd: root, gitDir: store, input: content }).toString('utf8').trim();
    const entry = guarded[path];
    if (entry !== undefined && written !== entry.blob) guarded[path] = { ...entry, blob: written };
  }
  return guarded;
}

/** Writes a guarded file back from the store, or removes it when the snapshot did not have it. */
export function restoreGuarded(root: string, path: string, before: GuardedFile | undefined): void {
  const absolute = join(root, path);
  if (before === undefined) {
    rmSync(absolute, { force: true });
    return;
  }
  const content = runGit(['cat-file', 'blob', before.blob], { cwd: root, gitDir: snapshotStorePath(root) });
  mkdirSync(dirname(absolute), { recursive: true });
  if (before.kind === 'symlink') {
    rmSync(absolute, { force: true, recursive: true });
    symlinkSync(content.toString('utf8'), absolute);
    return;
  }
  writeAtomically(absolute, content, before.kind === 'executable' ? 0o755 : 0o644);
}
