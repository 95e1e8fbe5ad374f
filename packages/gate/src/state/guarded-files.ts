import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { AGENT_SETTINGS_NAMES, toSlashes, writeAtomically } from '../io/index.js';
import { nodeCrypto } from '../io/index.js';
import { SnapshotError, runGit } from '../io/index.js';
import type { RepoLocation } from './repo-state.js';
import { HOLDFAST_DIR } from './session-state.js';
import { SNAPSHOT_STORE, snapshotStorePath } from './snapshot-store.js';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { sealText, unsealText } from './state-seal.js';

/** holdfast's own files under `.holdfast/`: written by the gate itself, so never tampering. */
const HOLDFAST_OWN_FILES: readonly string[] = ['audit.jsonl', 'sessions', 'cache', '.gitignore', SNAPSHOT_STORE];

/** Guarded folders are small (settings, hooks); more entries than this is refused rather than read. */
const MAX_GUARDED_ENTRIES = 20_000;

/** A file outside the snapshot tree that the gate watches for tampering, with its content stored as a blob. */
export interface GuardedFile {
  readonly blob: string;
  readonly kind: 'file' | 'executable' | 'symlink';
  /**
   * The file's identity (see FoundFile) when it was read, kept only when the file had not changed for
   * RACY_MS: the check after the call takes the blob of a file whose identity is still this one.
   */
  readonly identity?: string;
}

/** Root-relative path → guarded file. */
export type GuardedFiles = Readonly<Record<string, GuardedFile>>;

/** Git's blob id of some content (what `git hash-object` prints), without a git process. */
export function blobId(content: Buffer): string {
  return nodeCrypto().createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function objectPath(store: string, id: string): string {
  return join(store, 'objects', id.slice(0, 2), id.slice(2));
}

/** The folders and files watched for tampering, as absolute paths. */
function guardedRoots(root: string, repo: RepoLocation | null): string[] {
  const roots = [...AGENT_SETTINGS_NAMES, HOLDFAST_DIR].map((folder) => join(root, folder));
  if (repo !== null) roots.push(join(repo.commonDir, 'config'), join(repo.commonDir, 'hooks'));
  return roots;
}

/** `path` is root-relative with slashes; a path outside the root starts with `..`. */
function isHoldfastOwn(path: string): boolean {
  if (!path.startsWith(`${HOLDFAST_DIR}/`)) return false;
  const first = path.slice(HOLDFAST_DIR.length + 1).split('/')[0] ?? '';
  // The store is built beside its final name (`snapshots.git.<pid>.<id>.tmp`) before it is renamed.
  return HOLDFAST_OWN_FILES.includes(first) || first.startsWith(`${SNAPSHOT_STORE}.`);
}

interface FoundFile {
  readonly absolute: string;
  readonly kind: GuardedFile['kind'];
  /** Device, inode, size, mode and both time stamps in nanoseconds: a file with the same identity has not been written. */
  readonly identity: string;
  readonly changedMs: number;
}

/** A guarded file's blob as last read, by its identity (see FoundFile). */
interface KnownBlob {
  readonly identity: string;
  readonly blob: string;
}

/** In the store: what each guarded file's blob was when last read. */
const KNOWN_BLOBS = 'guarded-blobs.json';
/** A file changed this recently is read again next time: a second write in the same clock tick may not show in its time stamps. */
export const GUARDED_RACY_MS = 3000;
const RACY_MS = GUARDED_RACY_MS;

export interface CaptureOptions {
  /**
   * Take the blob of a file whose identity is unchanged from the store's list instead of reading it
   * (the PreToolUse snapshot, on every shell call). The after-the-fact check never does: it reads every
   * guarded file, so a list a command rewrote cannot hide what it changed.
   */
  readonly reuseUnchanged?: boolean;
  /**
   * The after-the-fact check: the guarded files its call's own before-snapshot recorded. A file whose
   * identity is the one recorded there (ctime included, which no unprivileged write can set back) has
   * not been written since, and its recorded blob is taken without reading it. The record is what the
   * check trusts for the blobs anyway; the store's shared list is not used.
   */
  readonly unchangedSince?: GuardedFiles;
  readonly nowMs?: () => number;
}

function collectGuarded(root: string, start: string, found: Map<string, FoundFile>): void {
  // Paths are built beside the absolute ones (root-relative, slashes): path.relative on every entry costs.
  const pending: [absolute: string, path: string][] = [[start, toSlashes(relative(root, start))]];
  while (pending.length > 0) {
    const [absolute, path] = pending.pop() as [string, string];
    if (isHoldfastOwn(path)) continue;
    let stats;
    try {
      stats = lstatSync(absolute, { bigint: true });
    } catch {
      continue;
    }
    if (found.size + pending.length > MAX_GUARDED_ENTRIES) {
      throw new SnapshotError(
        'E_SNAPSHOT_GUARDED',
        `more than ${MAX_GUARDED_ENTRIES} entries under the watched folders (${start}); the gate cannot watch them for tampering`,
      );
    }
    const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mode}:${stats.mtimeNs}:${stats.ctimeNs}`;
    const changedMs = Number(stats.ctimeNs / 1_000_000n);
    if (stats.isSymbolicLink()) found.set(path, { absolute, kind: 'symlink', identity, changedMs });
    else if (stats.isFile()) found.set(path, { absolute, kind: (stats.mode & 0o111n) !== 0n ? 'executable' : 'file', identity, changedMs });
    else if (stats.isDirectory()) {
      for (const name of readdirSync(absolute)) pending.push([join(absolute, name), `${path}/${name}`]);
    }
  }
}

/** A guarded file as lstat sees it, without reading it: what the cheap between-calls comparison needs. */
export interface StatedGuardedFile {
  readonly absolute: string;
  readonly kind: GuardedFile['kind'];
  readonly identity: string;
  /** Its ctime in milliseconds: an identity younger than RACY_MS may not show a second write. */
  readonly changedMs: number;
}

/** Every guarded file with its identity (device, inode, size, mode, mtime, ctime), by lstat alone. */
export function statGuarded(root: string, repo: RepoLocation | null): Map<string, StatedGuardedFile> {
  const found = new Map<string, FoundFile>();
  for (const start of guardedRoots(root, repo)) collectGuarded(root, start, found);
  return found;
}

/** A guarded file's blob as it is now (a symlink's target), or undefined when it cannot be read. */
export function currentBlob(file: StatedGuardedFile): string | undefined {
  try {
    return blobId(file.kind === 'symlink' ? Buffer.from(readlinkSync(file.absolute)) : readFileSync(file.absolute));
  } catch {
    return undefined;
  }
}

/**
 * The list is sealed (state-seal.ts): a command that rewrites it to map a guarded file's new identity
 * to its old blob would otherwise hide the change from the snapshot. A list that does not verify is
 * no evidence: every guarded file is read.
 */
function readKnownBlobs(store: string): Record<string, KnownBlob> {
  let text: string;
  try {
    text = readFileSync(join(store, KNOWN_BLOBS), 'utf8');
  } catch {
    return {};
  }
  const body = unsealText(KNOWN_BLOBS_PURPOSE, text);
  const parsed = body === undefined ? undefined : jsonOrUndefined(body);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, KnownBlob>) : {};
}

const KNOWN_BLOBS_PURPOSE = 'guarded-blobs';

/** Hashes the guarded files and writes the blobs the store does not have yet (one git call at most). */
export function captureGuarded(root: string, store: string, repo: RepoLocation | null, options: CaptureOptions = {}): GuardedFiles {
  const found = new Map<string, FoundFile>();
  for (const start of guardedRoots(root, repo)) collectGuarded(root, start, found);
  const known = readKnownBlobs(store);
  const settled = (options.nowMs ?? Date.now)() - RACY_MS;
  const guarded: Record<string, GuardedFile> = {};
  const nextKnown: Record<string, KnownBlob> = {};
  const missing: { path: string; content: Buffer }[] = [];
  for (const [path, file] of [...found.entries()].sort(([left], [right]) => (left < right ? -1 : 1))) {
    const settledIdentity = file.changedMs < settled ? { identity: file.identity } : {};
    const recorded = options.unchangedSince?.[path];
    if (recorded?.identity === file.identity && recorded.kind === file.kind) {
      guarded[path] = recorded;
      nextKnown[path] = { identity: file.identity, blob: recorded.blob };
      continue;
    }
    const remembered = known[path];
    if (
      options.reuseUnchanged === true &&
      remembered?.identity === file.identity &&
      typeof remembered.blob === 'string' &&
      existsSync(objectPath(store, remembered.blob))
    ) {
      guarded[path] = { blob: remembered.blob, kind: file.kind, ...settledIdentity };
      nextKnown[path] = remembered;
      continue;
    }
    let content: Buffer;
    try {
      content = file.kind === 'symlink' ? Buffer.from(readlinkSync(file.absolute)) : readFileSync(file.absolute);
    } catch {
      continue;
    }
    const blob = blobId(content);
    guarded[path] = { blob, kind: file.kind, ...settledIdentity };
    if (file.changedMs < settled) nextKnown[path] = { identity: file.identity, blob };
    if (!existsSync(objectPath(store, blob))) missing.push({ path, content });
  }
  for (const { path, content } of missing) {
    const written = runGit(['hash-object', '-w', '--no-filters', '--stdin'], { cwd: root, gitDir: store, ownRepository: true, input: content })
      .toString('utf8')
      .trim();
    const entry = guarded[path];
    if (entry !== undefined && written !== entry.blob) {
      guarded[path] = { blob: written, kind: entry.kind };
      delete nextKnown[path];
    }
  }
  if (JSON.stringify(nextKnown) !== JSON.stringify(known)) {
    try {
      writeAtomically(join(store, KNOWN_BLOBS), sealText(KNOWN_BLOBS_PURPOSE, JSON.stringify(nextKnown)));
    } catch {
      // the list only saves reading; without it every file is read
    }
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
  const content = runGit(['cat-file', 'blob', before.blob], { cwd: root, gitDir: snapshotStorePath(root), ownRepository: true });
  mkdirSync(dirname(absolute), { recursive: true });
  if (before.kind === 'symlink') {
    rmSync(absolute, { force: true, recursive: true });
    symlinkSync(content.toString('utf8'), absolute);
    return;
  }
  writeAtomically(absolute, content, before.kind === 'executable' ? 0o755 : 0o644);
}
