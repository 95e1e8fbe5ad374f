import type { Rulebook } from '@holdfast/core/contract';
import { countsAsRequiredRun } from '@holdfast/core/rules';

/** A sandbox command's time when the rulebook sets none (rulebook `sandbox.timeoutSeconds`, as in the lab). */
const TREE_RUN_TIMEOUT_MS = 60_000;

/** Whether a command line is one a commit-timed rule (order, requires) would count: only those are worth re-running. */
export function requiredCommandTest(rulebook: Rulebook): (command: string) => boolean {
  return countsAsRequiredRun(rulebook);
}

/** A sandbox command's time under this rulebook (`sandbox.timeoutSeconds`, 60 s when unset), as the lab's sandbox gives its commands. */
export function rerunTimeoutMs(rulebook: Rulebook): number {
  const seconds = rulebook.sandbox?.timeoutSeconds;
  return seconds === undefined ? TREE_RUN_TIMEOUT_MS : seconds * 1000;
}
