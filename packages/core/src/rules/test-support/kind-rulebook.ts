import type { Action, CheckResult, Rulebook } from '../../contract/index.js';
import { checkActions } from '../check-actions.js';
import { parseRulebook } from '../parse-rulebook.js';

/** A one-rule rulebook from the YAML of its check, read by the real loader (so its schema and semantic checks run). */
export function ruleWith(checkYaml: string, id = 'R9', name = 'KIND'): Rulebook {
  const indented = checkYaml
    .trim()
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
  return parseRulebook(`version: 1\nrules:\n  - id: ${id}\n    name: ${name}\n    prose: The rule.\n    check:\n${indented}\n`, 'test.yaml');
}

/** Judges actions against a rulebook, with the earlier content of existing files when given. */
export function judgeWith(rulebook: Rulebook, actions: readonly Action[], existing: Record<string, string> | readonly string[] = []): Promise<CheckResult[]> {
  const paths = Array.isArray(existing) ? existing : Object.keys(existing);
  const content = Array.isArray(existing) ? undefined : (existing as Record<string, string>);
  return checkActions(actions, paths, rulebook, undefined, content === undefined ? undefined : (path) => content[path]);
}

export const run = (cmd: string): Action => ({ type: 'run', cmd });
export const commit: Action = { type: 'commit', message: 'change' };
