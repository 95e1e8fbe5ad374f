import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from './session-state.js';
import type { SnapshotRecord } from './snapshot.js';
import { indexTree, priorIndexPath, snapshotStorePath, treeChanges } from './snapshot-store.js';

function sameFile(left: string, right: string): boolean {
  try {
    return statSync(left).size === statSync(right).size && readFileSync(left).equals(readFileSync(right));
  } catch {
    return true;
  }
}

/**
 * Paths that changed while no checked call ran: between the work tree as the last shell call was
 * checked (the store's index as this call found it) and as this call began, less the files the
 * session's own tools wrote (its created and changed files). What is left was changed by a person,
 * an editor, or a process a command left running in the background, and no rule judged it. Only
 * reported: the gate cannot tell those apart. When git saw nothing change (the index files are the
 * same, byte for byte) this costs no git process; otherwise three.
 */
export function changedOutsideCalls(root: string, before: SnapshotRecord, session: SessionState): string[] {
  if (before.index === undefined) return [];
  const store = snapshotStorePath(root);
  const beforeIndex = join(store, before.index);
  const priorIndex = priorIndexPath(beforeIndex);
  if (sameFile(priorIndex, beforeIndex)) return [];
  const explained = new Set([...session.created, ...(session.changed ?? [])]);
  return treeChanges(root, indexTree(root, store, priorIndex), indexTree(root, store, beforeIndex))
    .map((change) => change.path)
    .filter((path) => !explained.has(path));
}
