import type { OrderCheck } from '../../contract/index.js';
import { runsElsewhere } from '../commands/required-run.js';
import { lazyPatterns } from '../regex.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

/**
 * R6: every commit needs a passing test run after the last write or delete before it. A commit
 * with no change before it in the round still needs a test run before it: it commits whatever the
 * working tree holds, and "a test run precedes every commit" has no exception for that.
 *
 * A run's outcome counts when it was observed (a sandbox executed it): a test run that failed,
 * timed out or was never executed does not count, so "npm test fails, commit anyway" is a
 * violation. A run nobody executed (a plan judged without a sandbox) counts by its command alone.
 */
export const orderCheck: CheckHandler<OrderCheck> = {
  description: 'Every commit needs a passing run of the test command after the last change.',
  timing: 'commit',
  notInHistory: 'a commit does not show which commands ran and passed before it',
  reads: 'paths',
  requires(check) {
    const [pattern] = lazyPatterns([check.command], '');
    const matches = (commandLine: string): boolean => {
      try {
        return pattern?.test(commandLine) === true;
      } catch {
        // A pattern RE2 refuses counts nothing; the commit's own check says it cannot be judged.
        return false;
      }
    };
    return [
      {
        name: `the test command (${check.example})`,
        example: check.example,
        counts: (commandLine) => matches(commandLine) && runsElsewhere(commandLine) === undefined,
        mayCount: (commandLine) => pattern?.mayMatch?.(commandLine) !== false,
      },
    ];
  },
  prepare(check, rule) {
    const [pattern] = lazyPatterns([check.command], '');
    return (round) => {
      // Without a commit there is nothing to judge, and the test command's pattern is not needed.
      if (!round.actions.some((action) => action.type === 'commit')) return [];
      const results = [];
      let lastChange: number | undefined;
      let lastTestRun: number | undefined;
      let lastTestRunObserved = false;
      let lastFailedRun: { index: number; ending: string } | undefined;
      let broken: string | undefined;
      let elsewhere: { index: number; why: string } | undefined;
      for (const action of round.actions) {
        if (action.type === 'write' || action.type === 'delete') lastChange = action.index;
        if (action.type === 'run' && action.cmd !== undefined) {
          let matches = false;
          try {
            matches = pattern?.test(action.cmd) === true;
          } catch (error) {
            broken ??= error instanceof Error ? error.message : String(error);
          }
          const away = matches ? runsElsewhere(action.cmd) : undefined;
          if (away !== undefined) elsewhere = { index: action.index, why: away };
          if (matches && away === undefined) {
            if (action.observed === undefined || action.observed.passed) {
              lastTestRun = action.index;
              lastTestRunObserved = action.observed !== undefined;
            } else lastFailedRun = { index: action.index, ending: action.observed.ending };
          }
        }
        if (action.type !== 'commit') continue;
        const commit = `commit (action ${action.index})`;
        const after = (index: number | undefined) => index !== undefined && (lastChange === undefined || index > lastChange);
        if (broken !== undefined) {
          results.push(result(rule, action.index, false, `${commit} cannot be judged: the test command pattern ${broken}.`));
        } else if (after(lastTestRun) && !(after(lastFailedRun?.index) && lastFailedRun!.index > lastTestRun!)) {
          results.push(result(rule, action.index, true, `${commit} follows a test run (action ${lastTestRun})${lastTestRunObserved ? ' that passed' : ''}.`));
        } else if (lastFailedRun !== undefined && after(lastFailedRun.index)) {
          results.push(
            result(
              rule,
              action.index,
              false,
              `${commit} follows a test run (action ${lastFailedRun.index}) that did not pass: ${lastFailedRun.ending}. A test run counts only when it passes; fix what fails, run ${check.example} again, then commit.`,
            ),
          );
        } else if (elsewhere !== undefined && after(elsewhere.index)) {
          results.push(
            result(
              rule,
              action.index,
              false,
              `${commit} follows a test run that does not count (action ${elsewhere.index}): ${elsewhere.why}; run ${check.example} in the project root.`,
            ),
          );
        } else if (lastChange === undefined) {
          results.push(result(rule, action.index, false, `${commit} has no test run before it; run ${check.example} first.`));
        } else {
          results.push(
            result(
              rule,
              action.index,
              false,
              `${commit} comes after the last change (action ${lastChange}) with no test run in between; run ${check.example} after your last change and before committing.`,
            ),
          );
        }
      }
      return results;
    };
  },
};
