import type { ScopeCheck } from '../../contract/index.js';
import { compileGlobs } from '../glob.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

/** R2: every write and delete lands inside the allowed globs, judged on the normalised path. */
export const scopeCheck: CheckHandler<ScopeCheck> = {
  description: 'A write or delete must resolve inside the allowed folders.',
  timing: 'action',
  reads: 'paths',
  prepare(check, rule) {
    const allowed = compileGlobs(check.allow);
    const allowedText = check.allow.join(', ');
    return (round) =>
      round.actions.flatMap((action) => {
        if (action.type !== 'write' && action.type !== 'delete') return [];
        const what = `${action.type} to ${action.shownPath}`;
        if (!action.path.ok) {
          return [result(rule, action.index, false, `${what} is refused: ${action.path.reason}; use a relative path inside ${allowedText}.`)];
        }
        if (allowed(action.path.path)) return [result(rule, action.index, true, `${what} is inside the allowed paths (${allowedText}).`)];
        const resolved = JSON.stringify(action.path.path) === action.shownPath ? '' : ` (it resolves to "${action.path.path}")`;
        return [result(rule, action.index, false, `${what} is outside the allowed paths (${allowedText})${resolved}.`)];
      });
  },
};
