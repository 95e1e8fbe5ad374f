import type { ForbiddenPatternCheck } from '../../contract/index.js';
import { compileGlobs } from '../glob.js';
import { firstMatch, lazyPatterns } from '../regex.js';
import type { CheckHandler } from './check-handler.js';
import { lineAt, result } from './check-handler.js';

/** R4: none of the patterns may appear in content written to the matching files. */
export const forbiddenPatternCheck: CheckHandler<ForbiddenPatternCheck> = {
  description: 'Refuses a pattern in written files matching its globs.',
  timing: 'action',
  reads: 'file',
  prepare(check, rule) {
    const applies = compileGlobs(check.files);
    const excluded = compileGlobs(check.exclude);
    const patterns = lazyPatterns(check.patterns, check.flags);
    return (round) =>
      round.actions.flatMap((action) => {
        // A path that does not normalise is the scope rule's to refuse; here it matches no glob.
        if (action.type !== 'write' || !action.path.ok) return [];
        if (!applies(action.path.path) || excluded(action.path.path)) return [];
        const what = `write to ${action.shownPath}`;
        if (action.content === undefined) {
          return [result(rule, action.index, false, `${what} has no readable content (not a string), so it cannot be checked for ${check.what}.`)];
        }
        let match;
        try {
          match = firstMatch(action.content, patterns);
        } catch (error) {
          return [result(rule, action.index, false, `${what} cannot be judged: ${error instanceof Error ? error.message : String(error)}.`)];
        }
        if (match === undefined) return [result(rule, action.index, true, `${what} adds no ${check.what}.`)];
        const { line, excerpt } = lineAt(action.content, match.index);
        return [result(rule, action.index, false, `${what} adds ${check.what} at line ${line} (\`${excerpt}\`).`)];
      });
  },
};
