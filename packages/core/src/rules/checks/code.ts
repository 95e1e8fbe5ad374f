import type { NapiConfig } from '@ast-grep/napi';
import type { CodeCheck } from '../../contract/index.js';
import { compileForbidden } from '../code/forbidden-references.js';
import { readCode } from '../code/read-code.js';
import type { CodeMatcher, CodeReading } from '../code/read-code.js';
import { compileGlobs } from '../glob.js';
import { lazyPatterns } from '../regex.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

/**
 * A structural rule: ast-grep patterns and/or forbidden names and modules, judged on the syntax
 * tree of every written file its globs reach, so a comment or a string never counts and a
 * respelling (`console?.log`, `console['log']`) still does.
 */
export const codeCheck: CheckHandler<CodeCheck> = {
  description: 'Refuses a construct in written files, read on the syntax tree (comments and strings never count).',
  timing: 'action',
  reads: 'file',
  prepare(check, rule) {
    const applies = compileGlobs(check.files);
    const excluded = compileGlobs(check.exclude);
    const matcher = codeMatcher(check);
    const what = withoutArticle(check.what);
    return (round) =>
      round.actions.flatMap((action) => {
        if (action.type !== 'write' || !action.path.ok) return [];
        if (!applies(action.path.path) || excluded(action.path.path)) return [];
        const write = `write to ${action.shownPath}`;
        if (action.content === undefined) {
          return [result(rule, action.index, false, `${write} has no readable content (not a string), so it cannot be checked for ${check.what}.`)];
        }
        const reading = readCode(round.actions, action.path.path, action.content, matcher);
        if (reading.state === 'skipped') return [];
        if (reading.state === 'unjudgeable') return [result(rule, action.index, false, `${write} cannot be judged: ${reading.reason}.`)];
        if (reading.state === 'clean') return [result(rule, action.index, true, `${write} adds no ${what}${noteOf(reading)}.`)];
        return [result(rule, action.index, false, `${write} adds ${check.what} at line ${reading.line} (\`${reading.excerpt}\`)${noteOf(reading)}.`)];
      });
  },
};

/** The rule's patterns compiled once: the ast-grep config as ast-grep takes it, the names, the fallback regexes. */
export function codeMatcher(check: Pick<CodeCheck, 'rule' | 'constraints' | 'utils' | 'forbid' | 'language' | 'fallback'>): CodeMatcher {
  const rule =
    check.rule === undefined
      ? undefined
      : ({
          rule: check.rule,
          ...(check.constraints === undefined ? {} : { constraints: check.constraints }),
          ...(check.utils === undefined ? {} : { utils: check.utils }),
        } as NapiConfig);
  return {
    rule,
    forbid: check.forbid === undefined ? undefined : compileForbidden(check.forbid),
    language: check.language,
    fallback: lazyPatterns(check.fallback, ''),
  };
}

/** Where the verdict came from, when it was not a clean reading of the tree. */
export function noteOf(reading: CodeReading): string {
  if (reading.state !== 'clean' && reading.state !== 'found') return '';
  if (reading.state === 'clean' && reading.how === 'not-code') return ' (not a code file)';
  return reading.note === undefined ? '' : ` (${reading.note})`;
}

function withoutArticle(what: string): string {
  return what.replace(/^(?:a|an|the) /i, '');
}
