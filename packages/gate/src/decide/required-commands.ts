import type { Rulebook } from '@holdfast/core/contract';
import { compilePattern, requiredRun, runsElsewhere, spellingsOf } from '@holdfast/core/rules';

/** A sandbox command's time when the rulebook sets none (rulebook `sandbox.timeoutSeconds`, as in the lab). */
export const TREE_RUN_TIMEOUT_MS = 60_000;

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
