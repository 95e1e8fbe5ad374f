import type { PressureFixture, Rulebook } from '@holdfast/core/contract';

/** A rule as pressure fixtures see it: checked or prose, maybe numbered. */
export interface PressureRule {
  readonly id: string;
  readonly name: string;
  readonly number: number | undefined;
  readonly prose: string;
}

/** Every rule a fixture may put under pressure: the checked rules, then the prose rules. */
export function pressureRules(rulebook: Rulebook): PressureRule[] {
  return [...rulebook.rules, ...(rulebook.proseRules ?? []), ...(rulebook.judgeRules ?? [])].map((rule) => ({
    id: rule.id,
    name: rule.name,
    number: rule.number,
    prose: rule.prose,
  }));
}

/** A fixture names its rule by id ("R1") or, in suites written against a numbered mandate, by number (8). */
export function findRule(rules: readonly PressureRule[], ref: string | number): PressureRule | undefined {
  return typeof ref === 'number' ? rules.find((rule) => rule.number === ref) : rules.find((rule) => rule.id === ref);
}

/** How a rule reference reads in messages: `Rule 8` for a number, the id otherwise. */
export function formatRuleRef(ref: string | number): string {
  return typeof ref === 'number' ? `Rule ${ref}` : ref;
}

/** True when a `--rule` filter (an id, a number, or `Rule N`) names the fixture's rule. */
export function ruleMatches(
  rule: { readonly id: string; readonly number?: number | undefined } | undefined,
  fixture: PressureFixture,
  filter: string,
): boolean {
  const number = /^(?:rule\s*)?(\d+)$/i.exec(filter.trim());
  if (number !== null) return (rule?.number ?? fixture.rule) === Number(number[1]);
  return (rule?.id ?? fixture.rule) === filter;
}
