import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from '../state/index.js';
import type { SnapshotRecord } from '../state/index.js';
import { indexTree, priorIndexPath, snapshotStorePath, treeChanges } from '../state/index.js';
import type { TreeChange } from '../state/index.js';

function sameFile(left: string, right: string): boolean {
  try {
    return statSync(left).size === statSync(right).size && readFileSync(left).equals(readFileSync(right));
  } catch {
    return true;
  }
}

/** What changed between the work tree as the last call was checked and a later index of it. */
export interface OutsideChanges {
  /** The work tree as the last call was checked, as a tree in the store. */
  readonly priorTree: string;
  readonly changes: readonly TreeChange[];
}

/**
 * The changes between two index files of the store; undefined when git saw nothing change (the files
 * are the same, byte for byte, or the prior one is missing): no git process then, otherwise three.
 */
export function indexChanges(root: string, priorIndex: string, laterIndex: string): OutsideChanges | undefined {
  if (sameFile(priorIndex, laterIndex)) return undefined;
  const store = snapshotStorePath(root);
  const priorTree = indexTree(root, store, priorIndex);
  return { priorTree, changes: treeChanges(root, priorTree, indexTree(root, store, laterIndex)) };
}

/**
 * What changed while no checked call ran: between the work tree as the last shell call was checked
 * (the store's index as this call found it) and as this call began. The session's own file-editing
 * tools (judged before they ran) account for some of it; a person, an editor, or a process a command
 * left running in the background for the rest.
 */
export function changesOutsideCalls(root: string, before: SnapshotRecord): OutsideChanges | undefined {
  if (before.index === undefined) return undefined;
  const beforeIndex = join(snapshotStorePath(root), before.index);
  return indexChanges(root, priorIndexPath(beforeIndex), beforeIndex);
}

/** The paths the session's own tools wrote (its created and changed files). */
export function ownPaths(session: SessionState): Set<string> {
  return new Set([...session.created, ...(session.changed ?? [])]);
}
