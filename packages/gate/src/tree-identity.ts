import { join, resolve } from 'node:path';
import { nodeCrypto } from './lazy-builtins.js';
import { runGit } from './git-process.js';
import { readRepoState } from './repo-state.js';
import { ensureStore, indexTree, snapshotStorePath, workTreeTreeAside } from './snapshot-store.js';
import type { AddedIndex } from './snapshot-store.js';

/**
 * Top-level entries a tree's identity leaves out: holdfast's own state, the agents' settings folders
 * (guarded files, judged as tampering instead) and installed dependencies. The snapshot store leaves
 * them out of the work tree, so a tree the user's index writes must drop them too to compare.
 */
const LEFT_OUT: ReadonlySet<string> = new Set(['.holdfast', '.claude', '.codex', 'node_modules']);

/**
 * The identity of a tree from its top-level listing (`git ls-tree -z`): every entry but the ones
 * left out, hashed. Two trees with the same identity hold the same files, modes and contents in
 * every folder that counts (each subtree is named by its own object id).
 */
export function identityOfListing(listing: Buffer): string {
  const hash = nodeCrypto().createHash('sha256');
  for (const entry of listing.toString('utf8').split('\0')) {
    if (entry === '') continue;
    const name = entry.slice(entry.indexOf('\t') + 1);
    if (!LEFT_OUT.has(name)) hash.update(`${entry}\0`);
  }
  return hash.digest('hex');
}

/** Runs git and returns stdout, in whichever repository holds the tree. */
export type ReadTree = (args: readonly string[]) => Buffer;

/** The identity of a tree object (`tree` is an id or a tree-ish such as `abc123^{tree}`). */
export function treeIdentity(read: ReadTree, tree: string): string {
  return identityOfListing(read(['ls-tree', '-z', tree, '--']));
}

/** The identity of a tree in the gate's snapshot store (a call's before-index, the work tree now). */
export function storeTreeIdentity(root: string, tree: string): string {
  const gitDir = snapshotStorePath(resolve(root));
  return treeIdentity((args) => runGit(args, { cwd: root, gitDir }), tree);
}

/**
 * The work tree's identity now, as `git add -A` would stage it (.gitignore honoured): what a
 * commit of everything would hold. Two git processes (add into a copy of the store's index, which
 * rehashes only files changed since the last snapshot, then write-tree) plus the listing; `keep`
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
