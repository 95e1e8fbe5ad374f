import type { Rulebook } from '@holdfast/core/contract';
import { compilePattern, requiredRun, runsElsewhere, spellingsOf } from '@holdfast/core/rules';
import { readRepoState } from './repo-state.js';
import { ensureStore, snapshotStorePath, workTreeTreeAside } from './snapshot-store.js';
import { storeTreeIdentity } from './tree-identity.js';
import { TREE_RUN_TIMEOUT_MS, runOnTree } from './tree-rerun.js';
import type { TreeRunDeadline, TreeRunOutcome } from './tree-rerun.js';

/** A claim that `command` passed on the tree whose identity is `identity` (tree-identity.ts), to be checked by the gate itself. */
export interface RunClaim {
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

/** Whether a command line is one a commit-order rule (order's pattern, a requires spelling) would count: only those are worth re-running. */
export function requiredCommandTest(rulebook: Rulebook): (command: string) => boolean {
  const tests = rulebook.rules.flatMap((rule): ((command: string) => boolean)[] => {
    if (rule.check.kind === 'order') {
      const compiled = compilePattern(rule.check.command, '');
      if (!compiled.ok) return [];
      const pattern = compiled.pattern;
      return [(command) => pattern.test(command) && runsElsewhere(command) === undefined];
    }
    if (rule.check.kind === 'requires') {
      const spellings = rule.check.commands.map((required) => spellingsOf(required.run));
      return [(command) => spellings.some((each) => requiredRun(command, each)?.counts === true)];
    }
    return [];
  });
  return (command) => tests.some((test) => test(command));
}

/** A sandbox command's time under this rulebook (`sandbox.timeoutSeconds`, 60 s when unset), as the lab's sandbox gives its commands. */
export function rerunTimeoutMs(rulebook: Rulebook): number {
  const seconds = rulebook.sandbox?.timeoutSeconds;
  return seconds === undefined ? TREE_RUN_TIMEOUT_MS : seconds * 1000;
}

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
