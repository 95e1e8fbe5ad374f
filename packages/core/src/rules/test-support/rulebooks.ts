import { readFileSync } from 'node:fs';
import type { Action, CheckResult, Rulebook } from '../../contract/index.js';
import { checkActions } from '../check-actions.js';
import { defaultRulebookPath } from '../load-rulebook.js';
import { parseRulebook } from '../parse-rulebook.js';

export const defaultRulebook: Rulebook = parseRulebook(readFileSync(defaultRulebookPath(), 'utf8'), 'rulebooks/default.yaml');

/** The default rulebook cut down to the named rules, so a test judges one rule at a time. */
export function onlyRules(...ids: string[]): Rulebook {
  return { ...defaultRulebook, rules: defaultRulebook.rules.filter((rule) => ids.includes(rule.id)), agents: [] };
}

export function write(path: string, content = 'export const value = 1;\n'): Action {
  return { type: 'write', path, content };
}

/** Runs one rule of the default rulebook and returns its results. */
export async function judge(ruleId: string, actions: readonly Action[], existing: readonly string[] = []): Promise<CheckResult[]> {
  return checkActions(actions, existing, onlyRules(ruleId));
}
