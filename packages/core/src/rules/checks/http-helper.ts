import type { HttpHelperCheck } from '../../contract/index.js';
import { compileGlobs } from '../glob.js';
import { normalizeRepoPath } from '../paths.js';
import { firstMatch, lazyPatterns } from '../regex.js';
import { readCode } from '../code/read-code.js';
import type { CheckHandler } from './check-handler.js';
import { lineAt, result } from './check-handler.js';
import { codeMatcher, noteOf } from './code.js';

/** R5: code in the guarded folders makes HTTP calls only through the one helper file. */
export const httpHelperCheck: CheckHandler<HttpHelperCheck> = {
  description: 'Only the HTTP helper may call HTTP directly; elsewhere a direct call is refused.',
  timing: 'action',
  reads: 'file',
  prepare(check, rule) {
    const guarded = compileGlobs(check.folders);
    const helper = normalizeRepoPath(check.helper);
    const helperPath = helper.ok ? helper.path : check.helper;
    const patterns = lazyPatterns(check.patterns, '');
    // With `forbid`, code is read on its syntax tree and `patterns` judge only what does not parse.
    const matcher = check.forbid === undefined ? undefined : codeMatcher({ forbid: check.forbid, fallback: check.patterns });
    return (round) =>
      round.actions.flatMap((action) => {
        if (action.type !== 'write' || !action.path.ok) return [];
        if (!guarded(action.path.path) || action.path.path === helperPath) return [];
        const what = `write to ${action.shownPath}`;
        if (action.content === undefined) {
          return [result(rule, action.index, false, `${what} has no readable content (not a string), so it cannot be checked for direct HTTP calls.`)];
        }
        if (matcher !== undefined) {
          const reading = readCode(round.actions, action.path.path, action.content, matcher);
          if (reading.state === 'skipped') return [];
          if (reading.state === 'unjudgeable') return [result(rule, action.index, false, `${what} cannot be judged: ${reading.reason}.`)];
          if (reading.state === 'clean') return [result(rule, action.index, true, `${what} makes no direct HTTP call${noteOf(reading)}.`)];
          return [
            result(
              rule,
              action.index,
              false,
              `${what} calls ${reading.spelling} directly at line ${reading.line}${noteOf(reading)}; import the helper from ${helperPath} instead.`,
            ),
          ];
        }
        let match;
        try {
          match = firstMatch(action.content, patterns);
        } catch (error) {
          return [result(rule, action.index, false, `${what} cannot be judged: ${error instanceof Error ? error.message : String(error)}.`)];
        }
        if (match === undefined) return [result(rule, action.index, true, `${what} makes no direct HTTP call.`)];
        const { line } = lineAt(action.content, match.index);
        const call = match.text.replace(/\s+/g, '');
        return [result(rule, action.index, false, `${what} calls ${call} directly at line ${line}; import the helper from ${helperPath} instead.`)];
      });
  },
};
