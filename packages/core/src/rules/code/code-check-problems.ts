import type { CodeCheck } from '../../contract/index.js';
import { JAVASCRIPT_FAMILY, languageName, parseCode } from './code-language.js';

/**
 * What the schema cannot say about a `code` check: it must look for something, and its ast-grep
 * rule must compile for its language (ast-grep compiles a rule when it first runs, so it is run
 * once here on an empty file, and a rulebook with a bad pattern is refused when it loads).
 */
export function codeCheckProblems(check: CodeCheck): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  if (check.rule === undefined && check.forbid === undefined) {
    problems.push({
      path: [],
      message: 'a code check needs `rule:` (an ast-grep rule, e.g. { pattern: "console.log($$$ARGS)" }) or `forbid:` (e.g. { names: ["console.log"] })',
    });
  }
  if (check.forbid !== undefined) {
    if (check.forbid.names.length === 0 && check.forbid.modules.length === 0) {
      problems.push({ path: ['forbid'], message: 'forbid lists nothing; write names (e.g. ["fetch"]) and/or modules (e.g. ["axios"])' });
    }
    if (check.language !== undefined && !JAVASCRIPT_FAMILY.has(check.language)) {
      problems.push({
        path: ['forbid'],
        message: `forbid reads JavaScript and TypeScript only, and this check is for ${languageName(check.language)}; write an ast-grep \`rule:\` instead`,
      });
    }
  }
  if (check.rule !== undefined) {
    const language = check.language ?? 'typescript';
    const parsed = parseCode(language, '');
    if (!parsed.ok) {
      problems.push({ path: ['language'], message: parsed.reason });
      return problems;
    }
    const config = {
      rule: check.rule,
      ...(check.constraints === undefined ? {} : { constraints: check.constraints }),
      ...(check.utils === undefined ? {} : { utils: check.utils }),
    };
    try {
      parsed.root.root().find(config as Parameters<ReturnType<typeof parsed.root.root>['find']>[0]);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error))
        .split('\n')
        .map((line) => line.replace(/^\s*\|->/, '').trim())
        .filter((line) => line !== '')
        .join(' ');
      const field = /`constraints`/.test(reason) ? 'constraints' : /`utils`/.test(reason) ? 'utils' : 'rule';
      const hint = check.language === undefined ? ' (without `language:` the rule is read as TypeScript; name the language it is written for)' : '';
      problems.push({ path: [field], message: `ast-grep refuses the rule as ${languageName(language)}: ${reason}${hint}` });
    }
  }
  return problems;
}
