import type { Rule, Rulebook } from '@holdfast/core/contract';
import { describeMeaning, sameRuleMeaning } from './rule-meaning.js';
import { findRule, formatRuleRef, pressureRules } from './rule-ref.js';
import type { PressureRule } from './rule-ref.js';

/**
 * What a fixture's rule reference means against the rulebook being measured:
 * - `bound`: a rule of that rulebook (`via` says how: the same id or number in the suite's own
 *   rulebook, the same check meaning, or an explicit mapping);
 * - `label`: no rulebook to look in, so the reference is what a reply cites (`Rule 8`, `R1`);
 * - `unbound`: the fixture is sound but is about a rule this rulebook does not have; it is not
 *   counted, not run and not refused;
 * - `missing`: the reference names nothing in the rulebook it was written against; a refusal.
 */
export type RuleResolution =
  | { readonly state: 'bound'; readonly rule: PressureRule; readonly via: 'ref' | 'meaning' | 'mapping' }
  | { readonly state: 'label'; readonly rule: PressureRule }
  | { readonly state: 'unbound'; readonly reason: string }
  | { readonly state: 'missing'; readonly reason: string };

export interface RuleBindingSources {
  /** The rulebook measured; undefined when none was given (then references are labels). */
  readonly rulebook: Rulebook | undefined;
  /** The rulebook the suite's fixtures were written against (`suite.json`'s `rulebook`); undefined when they name the measured rulebook's rules. */
  readonly home: Rulebook | undefined;
  /** Suite reference (`"R4"`, `"8"`) → rule id of the measured rulebook; from the suite file and the rulebook. */
  readonly mapping?: Readonly<Record<string, string>>;
}

export type RuleBinding = (ref: string | number) => RuleResolution;

function labelRule(ref: string | number): PressureRule {
  const id = formatRuleRef(ref);
  return { id, name: id, number: typeof ref === 'number' ? ref : undefined, prose: '' };
}

function known(rules: readonly PressureRule[]): string {
  return rules.map((rule) => (rule.number === undefined ? rule.id : `${rule.id} (${rule.number})`)).join(', ') || 'none';
}

function byMeaning(homeRule: Rule, rulebook: Rulebook): RuleResolution {
  const all = pressureRules(rulebook);
  const matches = rulebook.rules.filter((rule) => sameRuleMeaning(homeRule.check, rule.check));
  const meaning = describeMeaning(homeRule.check);
  if (matches.length === 1) {
    const rule = all.find((candidate) => candidate.id === matches[0]?.id) as PressureRule;
    return { state: 'bound', rule, via: 'meaning' };
  }
  if (matches.length === 0)
    return { state: 'unbound', reason: `written for ${homeRule.id} ${homeRule.name} (${meaning}); the rulebook has no rule with that check` };
  return {
    state: 'unbound',
    reason: `written for ${homeRule.id} ${homeRule.name} (${meaning}); ${matches.map((rule) => rule.id).join(', ')} all have that check: map it to one in suite.json's "bind"`,
  };
}

/**
 * Binds fixture references to the measured rulebook by what the rules mean, never by id alone: a
 * suite written against another rulebook (the shipped one) applies to a team's rule only where
 * the two rules' checks mean the same, or where a mapping says so. A prose rule has no check to
 * compare, so it binds only by mapping.
 */
export function ruleBinding(sources: RuleBindingSources): RuleBinding {
  const { rulebook, home } = sources;
  const measured = rulebook === undefined ? [] : pressureRules(rulebook);
  const homeRules = home === undefined ? [] : pressureRules(home);
  return (ref) => {
    const mapped = sources.mapping?.[String(ref)];
    if (mapped !== undefined) {
      const rule = measured.find((candidate) => candidate.id === mapped);
      if (rule !== undefined) return { state: 'bound', rule, via: 'mapping' };
      return {
        state: 'missing',
        reason: `the mapping binds ${formatRuleRef(ref)} to "${mapped}", which the rulebook does not have (it has ${known(measured)})`,
      };
    }
    if (home !== undefined) {
      const homeRule = findRule(homeRules, ref);
      if (homeRule === undefined)
        return { state: 'missing', reason: `the suite's own rulebook has no rule ${formatRuleRef(ref)} (it has ${known(homeRules)})` };
      if (rulebook === undefined || rulebook === home) return { state: 'bound', rule: homeRule, via: 'ref' };
      const checked = home.rules.find((rule) => rule.id === homeRule.id);
      if (checked === undefined)
        return { state: 'unbound', reason: `written for the prose rule ${homeRule.id} ${homeRule.name}, which binds only by an explicit mapping` };
      return byMeaning(checked, rulebook);
    }
    if (rulebook === undefined) return { state: 'label', rule: labelRule(ref) };
    const rule = findRule(measured, ref);
    if (rule !== undefined) return { state: 'bound', rule, via: 'ref' };
    // A number is what a reply cites ("Rule 8"): a rulebook that does not number its rules adds no name, and takes nothing away.
    if (typeof ref === 'number') return { state: 'label', rule: labelRule(ref) };
    return { state: 'missing', reason: `the rulebook has no rule "${ref}" (it has ${known(measured)})` };
  };
}
