import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runGit } from '../io/index.js';
import { readRepoState } from './repo-state.js';
import { LEFT_OUT_NAMES, ensureStore, indexTree, snapshotStorePath, storeLeavesOutFolders, workTreeTreeAside } from './snapshot-store.js';
import type { AddedIndex } from './snapshot-store.js';

/**
 * Top-level entries a tree's identity leaves out: holdfast's own state, the agents' settings folders
 * (guarded files, judged as tampering instead) and installed dependencies. The snapshot store leaves
 * those folders out of the work tree, so a tree the user's index writes must drop them too to compare.
 */
const LEFT_OUT: ReadonlySet<string> = new Set(LEFT_OUT_NAMES);

/** The name of an entry of a `git ls-tree -z` listing ("mode type id\tname"). */
function entryName(entry: string): string {
  return entry.slice(entry.indexOf('\t') + 1);
}

/** Runs git and returns stdout, in whichever repository holds the tree (`input` is its stdin). */
export type ReadTree = (args: readonly string[], input?: string) => Buffer;

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The identity of a tree object (`tree` is an id or a tree-ish such as `abc123^{tree}`): the id of
 * the same tree without the entries left out. Two trees with the same identity hold the same files,
 * modes and contents in every folder that counts. A tree without such entries is its own identity;
 * for one with them, `git mktree` writes the rest (the objects it names are already there).
 */
export function treeIdentity(read: ReadTree, tree: string): string {
  const entries = read(['ls-tree', '-z', tree, '--'])
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
  const kept = entries.filter((entry) => !LEFT_OUT.has(entryName(entry)));
  if (kept.length === entries.length && OBJECT_ID.test(tree)) return tree;
  return read(['mktree', '-z', '--missing'], kept.map((entry) => `${entry}\0`).join(''))
    .toString('utf8')
    .trim();
}

/**
 * Whether the project's top folder holds a left-out name that is not a folder (a file or link named
 * `node_modules`, say): the snapshot store leaves out only the folders of those names, so only then
 * can a tree it writes hold one.
 */
function leftOutNonFolder(root: string): boolean {
  for (const name of LEFT_OUT) {
    try {
      if (!lstatSync(join(root, name)).isDirectory()) return true;
    } catch {
      // not there
    }
  }
  return false;
}

/**
 * The identity of a tree in the gate's snapshot store (a call's before-index, the work tree now). The
 * store neither adds the folders left out (its exclude file) nor keeps what the user tracks there (its
 * seed), so its tree is its own identity and no git process is needed, unless the project holds a file
 * or link of such a name, or the store was made by an earlier holdfast: then the tree is listed. A
 * tree from before a call that removed such a file may then differ from a commit of the same counted
 * files: the pass does not count, and the tests are run again (closed, not open).
 */
export function storeTreeIdentity(root: string, tree: string): string {
  const absoluteRoot = resolve(root);
  if (storeLeavesOutFolders(absoluteRoot) && !leftOutNonFolder(absoluteRoot)) return tree;
  const gitDir = snapshotStorePath(absoluteRoot);
  return treeIdentity((args, input) => runGit(args, { cwd: absoluteRoot, gitDir, ...(input !== undefined ? { input } : {}) }), tree);
}

/**
 * The work tree's identity now, as `git add -A` would stage it (.gitignore honoured): what a
 * commit of everything would hold. Two git processes (add into a copy of the store's index, which
 * rehashes only files changed since the last snapshot, then write-tree); `keep`
 * receives the added index for the call's own snapshot.
 */
export function workTreeIdentity(root: string, keep?: (added: AddedIndex) => void): string {
  const absoluteRoot = resolve(root);
  ensureStore(absoluteRoot, readRepoState(absoluteRoot));
  return storeTreeIdentity(absoluteRoot, workTreeTreeAside(absoluteRoot, keep));
}

/** The identity of the tree a commit in progress will hold: `git write-tree` of the index git gave the hook (GIT_INDEX_FILE honoured). */
export function stagedTreeIdentity(read: ReadTree): string {
  const tree = read(['write-tree']).toString('utf8').trim();
  return treeIdentity(read, tree);
}

/** The identity of the work tree a shell call found (its before-index, or the tree an earlier holdfast recorded). */
export function beforeCallIdentity(root: string, before: { readonly index?: string; readonly tree?: string }): string {
  const store = snapshotStorePath(resolve(root));
  const tree = before.index === undefined ? before.tree : indexTree(root, store, join(store, before.index));
  if (tree === undefined) throw new Error('the snapshot before the call names no tree');
  return storeTreeIdentity(root, tree);
}
