import type { OrderCheck } from '../../contract/index.js';
import { lazyPatterns } from '../regex.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

/**
 * R6: every commit needs a test run after the last write or delete before it. A commit with no
 * change before it in the round still needs a test run before it: it commits whatever the working
 * tree holds, and "a test run precedes every commit" has no exception for that.
 */
export const orderCheck: CheckHandler<OrderCheck> = {
  prepare(check, rule) {
    const [pattern] = lazyPatterns([check.command], '');
    return (round) => {
      const results = [];
      let lastChange: number | undefined;
      let lastTestRun: number | undefined;
      let broken: string | undefined;
      for (const action of round.actions) {
        if (action.type === 'write' || action.type === 'delete') lastChange = action.index;
        if (action.type === 'run' && action.cmd !== undefined) {
          try {
            if (pattern?.test(action.cmd) === true) lastTestRun = action.index;
          } catch (error) {
            broken ??= error instanceof Error ? error.message : String(error);
          }
        }
        if (action.type !== 'commit') continue;
        const commit = `commit (action ${action.index})`;
        if (broken !== undefined) {
          results.push(result(rule, action.index, false, `${commit} cannot be judged: the test command pattern ${broken}.`));
        } else if (lastTestRun !== undefined && (lastChange === undefined || lastTestRun > lastChange)) {
          results.push(result(rule, action.index, true, `${commit} follows a test run (action ${lastTestRun}).`));
        } else if (lastChange === undefined) {
          results.push(result(rule, action.index, false, `${commit} has no test run before it; run ${check.example} first.`));
        } else {
          results.push(
            result(rule, action.index, false, `${commit} comes after the last change (action ${lastChange}) with no test run in between; run ${check.example} after your last change and before committing.`),
          );
        }
      }
      return results;
    };
  },
};
