import { readRepoState } from '../state/index.js';
import { ensureStore, snapshotStorePath, workTreeTreeAside } from '../state/index.js';
import { storeTreeIdentity } from '../state/index.js';
import { runOnTree } from './tree-rerun.js';
import type { TreeRunDeadline, TreeRunOutcome } from './tree-rerun.js';

/** A claim that `command` passed on the tree whose identity is `identity` (tree-identity.ts), to be checked by the gate itself. */
interface RunClaim {
  readonly root: string;
  readonly command: string;
  readonly identity: string;
  readonly timeoutMs: number;
}

/**
 * Checks a claimed pass before the session record binds it to a tree. Under `holdfast exec` the
 * hook events come from inside the sandbox, where any process can send one, so a "this command
 * exited 0" is the agent's word; the broker gives the hook one of these to make it the gate's.
 */
export type ConfirmRun = (claim: RunClaim) => Promise<TreeRunOutcome>;

export interface WorkTreeConfirmation {
  readonly bwrap: string;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted when the hook's decision is out of time: the run then does not count. */
  readonly signal?: AbortSignal;
  readonly deadline?: TreeRunDeadline;
}

/**
 * The broker's check of a claim: the work tree now, staged as the snapshot store stages it, must be
 * the claimed tree (else the claim is about a tree that is not there), and the command, run by the
 * gate on a private copy of exactly that tree (tree-rerun.ts), must exit 0.
 */
export function confirmOnWorkTree(setup: WorkTreeConfirmation): ConfirmRun {
  return async (claim) => {
    let tree: string;
    try {
      ensureStore(claim.root, readRepoState(claim.root));
      tree = workTreeTreeAside(claim.root);
      if (storeTreeIdentity(claim.root, tree) !== claim.identity)
        return { kind: 'not-run', why: 'the work tree is no longer the tree it passed on, so the gate could not run it there itself' };
    } catch (error) {
      return { kind: 'not-run', why: `the gate could not read the work tree to run it itself (${(error as Error).message})` };
    }
    return runOnTree({
      root: claim.root,
      gitDir: snapshotStorePath(claim.root),
      tree,
      command: claim.command,
      bwrap: setup.bwrap,
      env: setup.env,
      timeoutMs: claim.timeoutMs,
      ...(setup.deadline !== undefined ? { deadline: setup.deadline } : {}),
      ...(setup.signal !== undefined ? { signal: setup.signal } : {}),
    });
  };
}
