import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SnapshotError, runGit } from './git-process.js';
import { readRepoState } from './repo-state.js';
import type { RepoLocation, RepoState } from './repo-state.js';
import { HOLDFAST_DIR, sessionFileName } from './session-state.js';

/**
 * The private object store of the after-the-fact check: a git directory of holdfast's own under
 * `.holdfast/`, used with the project folder as its work tree and its own index. It never touches the
 * user's repository objects, index or refs, and works in a folder that is not a git repository.
 */
export const SNAPSHOT_STORE = 'snapshots.git';

/** holdfast's own files under `.holdfast/`: written by the gate itself, so never tampering. */
export const HOLDFAST_OWN_FILES: readonly string[] = ['audit.jsonl', 'sessions', 'cache', SNAPSHOT_STORE];

/**
 * Left out of the snapshot tree: git's own folder, holdfast's state, dependencies, and the agents'
 * settings folders (those are watched as guarded files, ignored or not).
 */
const STORE_EXCLUDES = ['.git', '/.holdfast/', '/.claude/', '/.codex/', 'node_modules/'];

const STORE_CONFIG = [
  '[core]',
  '\tautocrlf = false',
  '\tsafecrlf = false',
  '\tfsmonitor = false',
  '\tuntrackedCache = true',
  '\tsymlinks = true',
  '[gc]',
  '\tauto = 0',
  '[advice]',
  '\taddEmbeddedRepo = false',
  '',
].join('\n');

/** How long a record of a call whose PostToolUse never came (a denied or interrupted call) is kept. */
const STALE_RECORD_MS = 24 * 60 * 60 * 1000;
/** Guarded folders are small (settings, hooks); more entries than this is refused rather than read. */
const MAX_GUARDED_ENTRIES = 20_000;

export function snapshotStorePath(root: string): string {
  return join(root, HOLDFAST_DIR, SNAPSHOT_STORE);
}

function unique(): string {
  return `${process.pid}.${randomBytes(4).toString('hex')}`;
}

/**
 * In a repository the store starts from the user's index and reads the user's objects (git's
 * alternates; it never writes there), so the first snapshot only hashes what changed since the last
 * `git add` instead of every file. A split index is not copied (its shared part lives beside it).
 */
function seedFromRepository(building: string, repo: RepoLocation): void {
  if (readdirSync(repo.gitDir).some((name) => name.startsWith('sharedindex.'))) return;
  mkdirSync(join(building, 'objects', 'info'), { recursive: true });
  writeFileSync(join(building, 'objects', 'info', 'alternates'), `${resolve(repo.commonDir, 'objects')}\n`);
  try {
    copyFileSync(join(repo.gitDir, 'index'), join(building, 'index'));
  } catch {
    // no index yet (a fresh repository): the first snapshot hashes everything
  }
}

/** Creates the store on first use, built aside and renamed into place so a concurrent call never sees half of it. */
export function ensureStore(root: string, repo: RepoLocation | null): string {
  const store = snapshotStorePath(root);
  if (existsSync(join(store, 'HEAD'))) return store;
  mkdirSync(join(root, HOLDFAST_DIR), { recursive: true });
  // holdfast's state is never part of the project: `git add -A` must not pick it up, installed or not.
  if (!existsSync(join(root, HOLDFAST_DIR, '.gitignore'))) writeAtomically(join(root, HOLDFAST_DIR, '.gitignore'), '*\n');
  const building = `${store}.${unique()}.tmp`;
  try {
    runGit(['init', '-q', '--bare', '--template=', building], { cwd: root });
    writeFileSync(join(building, 'config'), STORE_CONFIG, { flag: 'a' });
    mkdirSync(join(building, 'info'), { recursive: true });
    writeFileSync(join(building, 'info', 'exclude'), `${STORE_EXCLUDES.join('\n')}\n`);
    mkdirSync(join(building, 'calls'), { recursive: true });
    // The user's index names paths from the repository's top; it only fits a store rooted there too.
    if (repo !== null && resolve(repo.top) === resolve(root)) seedFromRepository(building, repo);
    renameSync(building, store);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(join(store, 'HEAD'))) {
      throw error instanceof SnapshotError ? error : new SnapshotError('E_SNAPSHOT_STORE', `cannot create the snapshot store ${store}: ${(error as Error).message}`, { cause: error });
    }
  }
  return store;
}

/** A file outside the snapshot tree that the gate watches for tampering, with its content stored as a blob. */
export interface GuardedFile {
  readonly blob: string;
  readonly kind: 'file' | 'executable' | 'symlink';
}

/** Root-relative path → guarded file. */
export type GuardedFiles = Readonly<Record<string, GuardedFile>>;

export interface Snapshot {
  /** The work tree (what git would see, .gitignore honoured) as a tree id in the store. */
  readonly tree: string;
  /** `.claude/`, `.codex/`, `.holdfast/` (but holdfast's own files), and the repository's config and hooks. */
  readonly guarded: GuardedFiles;
  /** The user's repository: HEAD and branch/tag tips; null outside a repository. */
  readonly repo: RepoState | null;
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function blobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
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
function captureGuarded(root: string, store: string, repo: RepoLocation | null): GuardedFiles {
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

/**
 * The work tree as a tree object: `git add -A` into a copy of the store's index (so two overlapping
 * calls never fight over one index lock), then `write-tree`; the copy replaces the index by a rename.
 */
function snapshotTree(root: string, store: string): string {
  const index = join(store, 'index');
  const working = `${index}.${unique()}.tmp`;
  try {
    try {
      copyFileSync(index, working);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const options = { cwd: root, gitDir: store, workTree: root, indexFile: working };
    runGit(['add', '-A', '--', '.'], options);
    const tree = runGit(['write-tree'], options).toString('utf8').trim();
    renameSync(working, index);
    return tree;
  } finally {
    rmSync(working, { force: true });
  }
}

/** Snapshots the project: work tree, guarded files and the repository's refs. */
export function takeSnapshot(root: string): Snapshot {
  const absoluteRoot = resolve(root);
  const repo = readRepoState(absoluteRoot);
  const store = ensureStore(absoluteRoot, repo);
  const guarded = captureGuarded(absoluteRoot, store, repo);
  const tree = snapshotTree(absoluteRoot, store);
  return { tree, guarded, repo };
}

/** What a shell call's PreToolUse leaves for its PostToolUse. */
export interface SnapshotRecord extends Snapshot {
  readonly version: 1;
  readonly session: string;
  readonly toolUseId: string | null;
  readonly time: string;
}

function callsFolder(root: string): string {
  return join(snapshotStorePath(root), 'calls');
}

function sessionPrefix(session: string): string {
  return `s-${createHash('sha256').update(session).digest('hex').slice(0, 16)}-`;
}

function recordName(toolUseId: string): string {
  return `t-${sessionFileName(toolUseId)}`;
}

/** Without a tool_use_id, calls of one session are numbered; the oldest open record answers the next PostToolUse. */
function sessionRecords(root: string, session: string): string[] {
  const prefix = sessionPrefix(session);
  let names: string[];
  try {
    names = readdirSync(callsFolder(root));
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(prefix) && name.endsWith('.json')).sort();
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${unique()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Ages are measured against the record just written, so the file system's clock is compared with itself. */
function dropStaleRecords(root: string, newest: string): void {
  let names: string[];
  let now: number;
  try {
    names = readdirSync(callsFolder(root));
    now = statSync(newest).mtimeMs;
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(callsFolder(root), name);
    try {
      if (now - statSync(path).mtimeMs > STALE_RECORD_MS) unlinkSync(path);
    } catch {
      // another call removed it first
    }
  }
}

/**
 * The PreToolUse side of the after-the-fact check: snapshots the project before a shell call runs and
 * records it for the call's PostToolUse, keyed by tool_use_id (session + a counter when the agent sends
 * none). Throws SnapshotError when it cannot: the caller must then refuse the call (fail closed).
 */
export function beforeShellCall(root: string, session: string, toolUseId: string | undefined, now: () => Date = () => new Date()): SnapshotRecord {
  const snapshot = takeSnapshot(root);
  const record: SnapshotRecord = { version: 1, session, toolUseId: toolUseId ?? null, time: now().toISOString(), ...snapshot };
  mkdirSync(callsFolder(root), { recursive: true });
  let name: string;
  if (toolUseId !== undefined && toolUseId !== '') name = recordName(toolUseId);
  else {
    const last = sessionRecords(root, session).at(-1);
    const next = last === undefined ? 0 : Number(/-(\d+)\.json$/.exec(last)?.[1] ?? '0') + 1;
    name = `${sessionPrefix(session)}${String(next).padStart(9, '0')}.json`;
  }
  const path = join(callsFolder(root), name);
  writeAtomically(path, `${JSON.stringify(record)}\n`);
  dropStaleRecords(root, path);
  return record;
}

function readRecord(raw: unknown): SnapshotRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Partial<SnapshotRecord>;
  if (record.version !== 1 || typeof record.tree !== 'string' || typeof record.guarded !== 'object' || record.guarded === null) return undefined;
  if (typeof record.session !== 'string' || record.repo === undefined) return undefined;
  return record as SnapshotRecord;
}

export interface OpenRecord {
  readonly record: SnapshotRecord;
  /** Removes the record once the call is judged. */
  close(): void;
}

/** The before-snapshot of a call; undefined when there is none (or it does not read back). */
export function findSnapshotRecord(root: string, session: string, toolUseId: string | undefined): OpenRecord | undefined {
  const name = toolUseId !== undefined && toolUseId !== '' ? recordName(toolUseId) : sessionRecords(root, session)[0];
  if (name === undefined) return undefined;
  const path = join(callsFolder(root), name);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const record = readRecord(raw);
  if (record === undefined) return undefined;
  return { record, close: () => rmSync(path, { force: true }) };
}

export interface TreeChange {
  readonly path: string;
  readonly status: 'added' | 'modified' | 'deleted';
  /** Blob ids before and after; null where the file did not exist. */
  readonly from: string | null;
  readonly to: string | null;
}

const ABSENT = /^0+$/;
/** Watched as guarded files instead (the user's index may track some of them, and the store starts from it). */
const GUARDED_PREFIXES = ['.claude/', '.codex/', `${HOLDFAST_DIR}/`];

/** What changed between two snapshot trees, path by path (renames as delete + add; submodules left out). */
export function treeChanges(root: string, before: string, after: string): TreeChange[] {
  if (before === after) return [];
  const fields = runGit(['diff-tree', '-r', '--no-renames', '-z', before, after], { cwd: root, gitDir: snapshotStorePath(root) })
    .toString('utf8')
    .split('\0');
  const changes: TreeChange[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [oldMode, newMode, from = '', to = '', status] = (fields[index] as string).replace(/^:/, '').split(' ');
    const path = fields[index + 1] as string;
    if (oldMode === '160000' || newMode === '160000' || GUARDED_PREFIXES.some((prefix) => path.startsWith(prefix))) continue;
    changes.push({
      path,
      status: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified',
      from: ABSENT.test(from) ? null : from,
      to: ABSENT.test(to) ? null : to,
    });
  }
  return changes;
}

/** Every file path in a snapshot tree. */
export function treePaths(root: string, tree: string): string[] {
  return runGit(['ls-tree', '-r', '-z', '--name-only', tree], { cwd: root, gitDir: snapshotStorePath(root) })
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '');
}

/** Puts paths back as a snapshot tree has them (each must be in it); nothing else in the work tree is touched. */
export function restoreFromTree(root: string, tree: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  const store = snapshotStorePath(root);
  runGit(['restore', `--source=${tree}`, '--worktree', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd: root,
    gitDir: store,
    workTree: root,
    input: `${paths.join('\0')}\0`,
  });
}

/** Removes a file the call created; folders it left empty stay (git does not track folders). */
export function removeCreated(root: string, path: string): void {
  rmSync(join(root, path), { force: true });
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
  const temporary = `${absolute}.${unique()}.tmp`;
  writeFileSync(temporary, content);
  chmodSync(temporary, before.kind === 'executable' ? 0o755 : 0o644);
  renameSync(temporary, absolute);
}

/** Settings in a git config blob that decide which hooks run; a change to any of them is tampering. */
export function hookSettings(root: string, blob: string | undefined): string[] {
  if (blob === undefined) return [];
  const listing = runGit(['config', `--blob=${blob}`, '--list', '-z'], { cwd: root, gitDir: snapshotStorePath(root) }).toString('utf8');
  return listing
    .split('\0')
    .filter((entry) => /^(?:core\.hookspath|core\.fsmonitor|include\.|includeif\.|hook\.)/i.test(entry))
    .sort();
}

/** One change the gate itself made while putting a path back: content `from` replaced by `to` (null: absent). */
export interface GateRevert {
  readonly path: string;
  readonly from: string | null;
  readonly to: string | null;
}

function revertJournal(root: string): string {
  return join(snapshotStorePath(root), 'reverts.jsonl');
}

/**
 * Remembers what the gate put back, so an overlapping call whose window covers the revert does not
 * take the gate's own change for the call's and undo it. Lines are small appends.
 */
export function journalReverts(root: string, reverts: readonly GateRevert[], now: Date): void {
  if (reverts.length === 0) return;
  const time = now.getTime();
  appendFileSync(revertJournal(root), reverts.map((revert) => `${JSON.stringify({ ...revert, time })}\n`).join(''));
}

/** The gate's reverts of the last day, as `path\0from\0to` keys. */
export function recentReverts(root: string, now: Date): Set<string> {
  const keys = new Set<string>();
  let text: string;
  try {
    text = readFileSync(revertJournal(root), 'utf8');
  } catch {
    return keys;
  }
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as Partial<GateRevert & { time: number }>;
      if (typeof entry.path === 'string' && typeof entry.time === 'number' && now.getTime() - entry.time <= STALE_RECORD_MS) {
        keys.add(revertKey({ path: entry.path, from: entry.from ?? null, to: entry.to ?? null }));
      }
    } catch {
      // a torn line: skip it
    }
  }
  return keys;
}

export function revertKey(revert: GateRevert): string {
  return `${revert.path}\0${revert.from ?? ''}\0${revert.to ?? ''}`;
}
