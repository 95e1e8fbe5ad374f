import {
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix, resolve, sep } from 'node:path';
import { removeFile, uniqueSuffix, withTemporaryName, writeAtomically } from '../io/index.js';
import { AGENT_SETTINGS_NAMES, SnapshotError, nodeCrypto, nulFields, nulPaths, pathBytes, runGit, tryGit } from '../io/index.js';
import type { RepoLocation } from './repo-state.js';
import { HOLDFAST_DIR } from './session-state.js';
import { keepIgnoredListing } from './hidden-files.js';

/**
 * The private object store of the after-the-fact check: a git directory of holdfast's own under
 * `.holdfast/`, used with the project folder as its work tree and its own index. It never touches the
 * user's repository objects, index or refs, and works in a folder that is not a git repository.
 */
export const SNAPSHOT_STORE = 'snapshots.git';

/**
 * Left out of the snapshot tree: git's own folder, holdfast's state, dependencies, and the agents'
 * settings folders (those are watched as guarded files, ignored or not).
 */
// Only the top-level node_modules (installed dependencies): one under src/ is the agent's code like any other (issue 27).
const STORE_EXCLUDES = ['.git', '/.holdfast/', ...AGENT_SETTINGS_NAMES.map((folder) => `/${folder}/`), '/node_modules/'];

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

export function snapshotStorePath(root: string): string {
  return join(root, HOLDFAST_DIR, SNAPSHOT_STORE);
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
    return;
  }
  // What the user tracks in the folders the store leaves out stays out too: the store's trees then
  // hold none of the entries a tree's identity drops, and are their own identity (tree-identity.ts).
  runGit(['rm', '--cached', '-r', '-q', '-f', '--ignore-unmatch', '--', ...LEFT_OUT_NAMES], {
    cwd: repo.top,
    gitDir: building,
    workTree: repo.top,
    indexFile: join(building, 'index'),
  });
}

/**
 * The top-level names a tree's identity leaves out (holdfast's state, the agents' settings folders,
 * installed dependencies): the store adds no folder of these names, nor keeps one the user tracks.
 */
export const LEFT_OUT_NAMES: readonly string[] = ['.holdfast', ...AGENT_SETTINGS_NAMES, 'node_modules'];

/**
 * Written into a store made without the left-out folders (see seedFromRepository); a store made by an
 * earlier holdfast may still hold what the user tracks there, and its trees are listed to drop them.
 */
const WITHOUT_LEFT_OUT = 'without-left-out';

/** Whether the store's trees hold no left-out folder (a file or link of such a name may still be there). */
export function storeLeavesOutFolders(root: string): boolean {
  return existsSync(join(snapshotStorePath(root), WITHOUT_LEFT_OUT));
}

/** Creates the store on first use, built aside and renamed into place so a concurrent call never sees half of it. */
export function ensureStore(root: string, repo: RepoLocation | null): string {
  const store = snapshotStorePath(root);
  if (existsSync(join(store, 'HEAD'))) return store;
  mkdirSync(join(root, HOLDFAST_DIR), { recursive: true });
  // holdfast's state is never part of the project: `git add -A` must not pick it up, installed or not.
  if (!existsSync(join(root, HOLDFAST_DIR, '.gitignore'))) writeAtomically(join(root, HOLDFAST_DIR, '.gitignore'), '*\n');
  const building = `${store}.${uniqueSuffix()}.tmp`;
  try {
    runGit(['init', '-q', '--bare', '--template=', building], { cwd: root });
    writeFileSync(join(building, 'config'), STORE_CONFIG, { flag: 'a' });
    mkdirSync(join(building, 'info'), { recursive: true });
    writeFileSync(join(building, 'info', 'exclude'), `${STORE_EXCLUDES.join('\n')}\n`);
    mkdirSync(join(building, 'calls'), { recursive: true });
    // The user's index names paths from the repository's top; it only fits a store rooted there too.
    if (repo !== null && resolve(repo.top) === resolve(root)) seedFromRepository(building, repo);
    writeFileSync(join(building, WITHOUT_LEFT_OUT), '');
    keepIgnoredListing(root, building);
    renameSync(building, store);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(join(store, 'HEAD'))) {
      throw error instanceof SnapshotError
        ? error
        : new SnapshotError('E_SNAPSHOT_STORE', `cannot create the snapshot store ${store}: ${(error as Error).message}`, { cause: error });
    }
  }
  return store;
}

/** Copies an index file with its time stamps, to a name nothing holds yet (never through a planted link). */
function copyIndex(from: string, to: string): void {
  copyFileSync(from, to, constants.COPYFILE_EXCL);
  // The copy keeps the index's own time (rounded down), or git's racy-entry check is lost: a file
  // changed in the same clock tick as the last snapshot, to the same size, would look unchanged.
  const { atime, mtime } = statSync(from);
  utimesSync(to, atime, mtime);
}

/**
 * `git add -A` of the work tree into a new index file started from a copy of `from` (so two
 * overlapping calls never fight over one index lock; a missing `from` starts from nothing and every
 * file is hashed). Returns the new file; the caller moves or removes it.
 */
function addWorkTree(root: string, store: string, from: string | null): string {
  const working = withTemporaryName(join(store, 'index'), (name) => {
    if (from === null) return name;
    try {
      copyIndex(from, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return name;
  });
  try {
    runGit(['add', '-A', '--', '.'], { cwd: root, gitDir: store, ownRepository: true, workTree: root, indexFile: working });
    return working;
  } catch (error) {
    removeFile(working);
    throw error;
  }
}

/** addWorkTree, and once more from nothing when git cannot use `from` (an index it cannot read). */
function addWorkTreeOrRehash(root: string, store: string, from: string): string {
  try {
    return addWorkTree(root, store, from);
  } catch {
    return addWorkTree(root, store, null);
  }
}

/**
 * Trees this process wrote, by the store and the bytes of the index they came from: a call's
 * before-index (or its copy in the mirror) is written by the check of changes between calls and by the
 * after-call check alike, and `write-tree` is a function of the index's bytes and the store (one git
 * process, not two; hashing the index costs less than starting git).
 */
const writtenTrees = new Map<string, string>();

function indexIdentity(store: string, indexFile: string): string | undefined {
  try {
    return `${store}\0${nodeCrypto().createHash('sha256').update(readFileSync(indexFile)).digest('hex')}`;
  } catch {
    return undefined;
  }
}

function writeTree(root: string, store: string, indexFile: string): string {
  const identity = indexIdentity(store, indexFile);
  const known = identity === undefined ? undefined : writtenTrees.get(identity);
  if (known !== undefined) return known;
  const tree = runGit(['write-tree'], { cwd: root, gitDir: store, ownRepository: true, workTree: root, indexFile }).toString('utf8').trim();
  // write-tree keeps the trees it computed in the index (its cache-tree), so the file it leaves is known by its new bytes too.
  for (const known of [identity, indexIdentity(store, indexFile)]) if (known !== undefined) writtenTrees.set(known, tree);
  return tree;
}

/** Makes an added index the store's own, so the next snapshot trusts the stat data it holds. */
function adopt(store: string, working: string): void {
  renameSync(working, join(store, 'index'));
}

function treeFromIndex(root: string, store: string, from: string | null): string {
  const working = from === null ? addWorkTree(root, store, null) : addWorkTreeOrRehash(root, store, from);
  try {
    const tree = writeTree(root, store, working);
    adopt(store, working);
    return tree;
  } finally {
    removeFile(working);
  }
}

/**
 * The work tree as a tree object: the store's index brought up to date, then `write-tree`. An index
 * naming an object that is gone (say from the user's repository, which the store reads) is dropped
 * and every file hashed again, once.
 */
export function snapshotTree(root: string, store: string): string {
  try {
    return treeFromIndex(root, store, join(store, 'index'));
  } catch {
    return treeFromIndex(root, store, null);
  }
}

/**
 * The store's index brought up to date for `paths` (from the project root, slashes) after the gate itself put
 * them back, so that the next call, comparing the tree as the last check left it with the tree it finds, starts
 * from the tree as the gate left it: otherwise the put-back reads as a change no call made. Only those paths
 * (one git process): whatever else changed since the after-call snapshot is still seen as changed between calls.
 * A failure leaves the index as it was (the next call then reports the put-back too: noise, never a miss).
 */
export function followPutBack(root: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  const store = snapshotStorePath(root);
  try {
    runGit(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      cwd: root,
      gitDir: store,
      ownRepository: true,
      workTree: root,
      indexFile: join(store, 'index'),
      input: paths.join('\0'),
    });
  } catch {
    // see above
  }
}

/** Beside a call's before-index: the store's index as the call found it (the work tree when the last call was checked). */
export function priorIndexPath(indexPath: string): string {
  return indexPath.replace(/\.index$/, '.prior');
}

/** A call's before-index younger than this belongs to a call that may still be running (a shell command may run 10 minutes). */
const OPEN_CALL_MS = 10 * 60 * 1000;

/**
 * Whether another shell call may be running now: its changes would land between the last check and this call.
 * A call the gate already checked (`checked`, by its before-index's file name) does not count.
 */
function anotherCallOpen(calls: string, now: number, checked: (indexName: string) => boolean): boolean {
  try {
    return readdirSync(calls).some((name) => name.endsWith('.index') && now - statSync(join(calls, name)).mtimeMs < OPEN_CALL_MS && !checked(name));
  } catch {
    return false;
  }
}

/**
 * Keeps the store's index as the call found it, by a hard link (nothing is copied), to tell later what
 * changed while no checked call ran. Not while another call is open: what it changes is not outside a call.
 */
function keepPriorIndex(store: string, keepAt: string, checked: (indexName: string) => boolean): void {
  const prior = priorIndexPath(keepAt);
  removeFile(prior);
  if (anotherCallOpen(dirname(keepAt), Date.now(), checked)) return;
  try {
    linkSync(join(store, 'index'), prior);
  } catch {
    // no index yet (the project's first snapshot), or a file system without hard links
  }
}

/** The tree of an index file of the store (writing the tree objects it needs). */
export function indexTree(root: string, store: string, indexFile: string): string {
  return writeTree(root, store, indexFile);
}

/**
 * The before side of a shell call, with one git process (none when `added` hands over an index the
 * same decision already added the work tree to): the work tree is added to an index kept at
 * `keepAt` (inside the store), and no tree is written yet. The after side (workTreeSince) writes trees
 * only when something changed.
 */
export function snapshotIndex(root: string, store: string, keepAt: string, added: AddedIndex | undefined, checked: (indexName: string) => boolean): void {
  keepPriorIndex(store, keepAt, checked);
  const working = added?.take() ?? addWorkTreeOrRehash(root, store, join(store, 'index'));
  try {
    removeFile(keepAt);
    try {
      linkSync(working, keepAt);
    } catch {
      copyIndex(working, keepAt);
    }
    adopt(store, working);
  } finally {
    removeFile(working);
  }
}

/**
 * The tree of a call's before-index. Its blobs were never checked when it was taken: one seeded from
 * the user's repository that has since gone from there leaves the call unchecked (a SnapshotError that
 * says so), and the store's index is dropped so the next snapshot hashes every file again.
 */
function beforeTree(root: string, store: string, indexFile: string): string {
  try {
    return writeTree(root, store, indexFile);
  } catch (error) {
    removeFile(join(store, 'index'));
    throw new SnapshotError(
      'E_SNAPSHOT_GONE',
      `the snapshot taken before the call names content that is gone from the repository it was read from (${(error as Error).message}); the next call's snapshot reads every file again`,
      { cause: error },
    );
  }
}

/** Tree ids of the work tree before and after a call. */
export interface TreePair {
  readonly before: string;
  readonly after: string;
}

/**
 * The after side of a shell call: the work tree added to a copy of the call's before-index. When git
 * leaves that copy as it was, byte for byte, every path, mode and blob is what it was before the call,
 * and null says so without writing a tree (a test run or a build into an ignored folder, the common
 * case). Otherwise both trees are written for the diff. A record of an earlier holdfast carries its
 * before-tree instead of an index; the after side then starts from the store's index.
 */
export function workTreeSince(root: string, store: string, before: { readonly index?: string; readonly tree?: string }): WorkTreeAfter {
  const beforeIndex = before.index === undefined ? undefined : join(store, before.index);
  const working = addWorkTreeOrRehash(root, store, beforeIndex ?? join(store, 'index'));
  try {
    const bytes = readFileSync(working);
    let pair: TreePair | null;
    if (beforeIndex !== undefined && statSync(beforeIndex).size === bytes.length && bytes.equals(readFileSync(beforeIndex))) pair = null;
    else pair = { before: before.tree ?? beforeTree(root, store, beforeIndex as string), after: writeTree(root, store, working) };
    // The bytes the store keeps (write-tree adds its cache-tree to them): what the next snapshot starts from.
    const kept = pair === null ? bytes : readFileSync(working);
    adopt(store, working);
    return { trees: pair, indexDigest: nodeCrypto().createHash('sha256').update(kept).digest('hex') };
  } finally {
    removeFile(working);
  }
}

/** The work tree after a call: its trees (null when git saw nothing change) and the SHA-256 of the index it was read into. */
export interface WorkTreeAfter {
  readonly trees: TreePair | null;
  readonly indexDigest: string;
}

export interface TreeChange {
  readonly path: string;
  readonly status: 'added' | 'modified' | 'deleted';
  /** Blob ids before and after; null where the file did not exist. */
  readonly from: string | null;
  readonly to: string | null;
  /** The path is a symbolic link after the change (its blob holds the link's target). */
  readonly link?: boolean;
  /** The file is not in the snapshot tree: ignore rules the call changed hid it (see hidden-files.ts). */
  readonly hidden?: boolean;
}

const ABSENT = /^0+$/;
/** Watched as guarded files instead (the user's index may track some of them, and the store starts from it). */
const GUARDED_PREFIXES = [...AGENT_SETTINGS_NAMES.map((folder) => `${folder}/`), `${HOLDFAST_DIR}/`];

/** What changed between two snapshot trees, path by path (renames as delete + add; submodules left out). */
export function treeChanges(root: string, before: string, after: string): TreeChange[] {
  if (before === after) return [];
  const fields = nulFields(
    runGit(['diff-tree', '-r', '--no-renames', '-z', before, after], { cwd: root, gitDir: snapshotStorePath(root), ownRepository: true }),
  );
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
      ...(newMode === '120000' ? { link: true } : {}),
    });
  }
  return changes;
}

/** Every file path in an index file of the store (a call's before-index). */
export function indexPaths(root: string, indexFile: string): string[] {
  const store = snapshotStorePath(root);
  return nulPaths(runGit(['ls-files', '-z'], { cwd: root, gitDir: store, ownRepository: true, workTree: root, indexFile: join(store, indexFile) }));
}

/**
 * The file paths of a snapshot tree in the folders of `paths` (not deeper): what a decision about those
 * paths reads, as the decision before a call does (the path and its siblings). One git process whose
 * output grows with those folders, not with the tree.
 */
export function treePathsAround(root: string, tree: string, paths: readonly string[]): string[] {
  // A path out of the project (a link's target) is in no snapshot tree: its folder is not asked for.
  const inside = paths.map((path) => posix.normalize(path)).filter((path) => !posix.isAbsolute(path) && path !== '..' && !path.startsWith('../'));
  const folders = [...new Set(inside.map((path) => posix.dirname(path)))].map((folder) => (folder === '.' ? './' : `${folder}/`));
  if (folders.length === 0) return [];
  // Names as bytes (io/path-bytes.ts): two names that differ only in undecodable bytes stay two names.
  return nulFields(runGit(['ls-tree', '-z', '--full-tree', tree, '--', ...folders], { cwd: root, gitDir: snapshotStorePath(root), ownRepository: true }))
    .filter((entry) => entry !== '' && !entry.startsWith('040000 '))
    .map((entry) => entry.slice(entry.indexOf('\t') + 1));
}

/** Puts paths back as a snapshot tree has them (each must be in it); nothing else in the work tree is touched. */
export function restoreFromTree(root: string, tree: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  const store = snapshotStorePath(root);
  runGit(['restore', `--source=${tree}`, '--worktree', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd: root,
    gitDir: store,
    workTree: root,
    input: Buffer.concat(paths.flatMap((path) => [pathBytes(path), Buffer.from([0])])),
  });
}

/** Removes a file the call created; folders it left empty stay (git does not track folders). */
export function removeCreated(root: string, path: string): void {
  try {
    unlinkSync(Buffer.concat([Buffer.from(`${root}${sep}`, 'utf8'), pathBytes(path)]));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Settings in a git config blob that decide which hooks run; a change to any of them is tampering.
 * A config git cannot read stands for itself, so any change to it counts.
 */
export function hookSettings(root: string, blob: string): string[] {
  const result = tryGit(['config', `--blob=${blob}`, '--list', '-z'], { cwd: root, gitDir: snapshotStorePath(root), ownRepository: true });
  if (result.status !== 0) return [`unreadable ${blob}`];
  return result.stdout
    .toString('utf8')
    .split('\0')
    .filter((entry) => /^(?:core\.hookspath|core\.fsmonitor|include\.|includeif\.|hook\.)/i.test(entry))
    .sort();
}

/**
 * An index a decision added the work tree to (workTreeTreeAside), handed to the snapshot of the
 * same call so the work tree is not added twice: `take` gives the file once (the snapshot then owns
 * it), `drop` removes it when no snapshot took it. It lives as long as one decision, never longer:
 * a long-lived broker must not give a later call an index of an earlier moment.
 */
export interface AddedIndex {
  take(): string | undefined;
  drop(): void;
}

/**
 * The work tree's tree now, added to a copy of the store's index: the store's own index (the work
 * tree as the last checked call left it) stays as it was, so changes made between calls are still
 * found by the next call's check. The added copy is dropped, or handed over through `keep`.
 */
export function workTreeTreeAside(root: string, keep?: (added: AddedIndex) => void): string {
  const store = snapshotStorePath(root);
  const working = addWorkTreeOrRehash(root, store, join(store, 'index'));
  let tree: string;
  try {
    tree = writeTree(root, store, working);
  } catch (error) {
    removeFile(working);
    throw error;
  }
  if (keep === undefined) {
    removeFile(working);
    return tree;
  }
  let held: string | undefined = working;
  keep({
    take: () => {
      const file = held;
      held = undefined;
      return file;
    },
    drop: () => {
      if (held !== undefined) removeFile(held);
      held = undefined;
    },
  });
  return tree;
}
