import type { PathsCheck } from '../../contract/index.js';
import { compileGlobs, GLOB_OPTIONS, picomatchLib } from '../glob.js';
import type { PathMatcher } from '../glob.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

/**
 * Allowed and denied paths for writes and deletes, on the same normalised path as R2 (so `..`,
 * absolute paths, backslashes and look-alike characters are refused before any glob is tried). A
 * denied glob matches ignoring case: on a case-insensitive file system `Migrations/1.sql` is the
 * protected `migrations/1.sql`. An allowed glob matches case-sensitively, as R2's does.
 */
export const pathsCheck: CheckHandler<PathsCheck> = {
  description: 'A write or delete must stay inside the allowed paths and never touch the denied ones.',
  timing: 'action',
  reads: 'paths',
  prepare(check, rule) {
    const allowed = check.allow === undefined ? undefined : compileGlobs(check.allow);
    const denied = check.deny === undefined ? undefined : caseless(check.deny);
    const allowText = check.allow?.join(', ') ?? '';
    const denyText = check.deny?.join(', ') ?? '';
    return (round) =>
      round.actions.flatMap((action) => {
        if (action.type !== 'write' && action.type !== 'delete') return [];
        const what = `${action.type} to ${action.shownPath}`;
        if (!action.path.ok) return [result(rule, action.index, false, `${what} is refused: ${action.path.reason}; use a plain relative path.`)];
        const path = action.path.path;
        const resolved = JSON.stringify(path) === action.shownPath ? '' : ` (it resolves to "${path}")`;
        if (denied?.(path) === true) {
          return [
            result(rule, action.index, false, `${what} touches ${check.what}${resolved}: ${denyText} must not be written or deleted; leave it as it is.`),
          ];
        }
        if (allowed !== undefined && !allowed(path)) {
          return [result(rule, action.index, false, `${what} is outside the allowed paths (${allowText})${resolved}.`)];
        }
        return [result(rule, action.index, true, `${what} is ${allowed === undefined ? `not ${check.what}` : `inside the allowed paths (${allowText})`}.`)];
      });
  },
};

/** Globs matched ignoring case; a denied folder glob (`migrations/**`) also denies the folder path itself. */
function caseless(globs: readonly string[]): PathMatcher {
  const picomatch = picomatchLib();
  const matchers = globs.map((glob) => picomatch(glob, { ...GLOB_OPTIONS, nocase: true }));
  const bases = globs.flatMap((glob) => {
    const scan = picomatch.scan(glob);
    return scan.isGlob && scan.base !== '' ? [scan.base.toLowerCase()] : [];
  });
  return (path) => matchers.some((matcher) => matcher(path)) || bases.includes(path.toLowerCase());
}
