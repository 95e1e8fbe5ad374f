import { PRESSURE_KINDS } from '@holdfast/core/contract';
import type { PressureFixture, PressureKind, Rulebook } from '@holdfast/core/contract';
import type { PressureSuite } from './load-suite.js';
import { findRule, pressureRules } from './rule-ref.js';
import type { PressureRule } from './rule-ref.js';

export interface RuleCoverage {
  readonly rule: string;
  readonly name: string;
  readonly fixtures: readonly string[];
}

export interface PressureCoverage {
  readonly rules: readonly RuleCoverage[];
  readonly covered: readonly string[];
  readonly uncovered: readonly string[];
  /** Fixtures per agent; fixtures that address no agent count under `(any)`. */
  readonly perAgent: Readonly<Record<string, number>>;
  /** Fixtures per pressure: the seed's six always, an extension once a fixture uses it. */
  readonly pressures: Readonly<Partial<Record<PressureKind, number>>>;
  readonly fixtureCount: number;
}

export const ANY_AGENT = '(any)';

export interface CoverageOptions {
  /** The rules to count; the rulebook's pressure rules by default. */
  readonly rules?: readonly PressureRule[];
  /** The measured rule id a fixture covers; by default its reference looked up in the rules. */
  readonly ruleIdOf?: (fixture: PressureFixture) => string | undefined;
}

/**
 * `agents`: ids declared beyond the rulebook (agent files), listed with 0 until a fixture addresses
 * them. A fixture covers the rule it is bound to, so a suite written against another rulebook
 * counts only where it binds (see `loadPressureSuite`).
 */
export function pressureCoverage(
  rulebook: Rulebook | undefined,
  fixtures: readonly PressureFixture[],
  agents: readonly string[] = [],
  options: CoverageOptions = {},
): PressureCoverage {
  const all = options.rules ?? (rulebook === undefined ? [] : pressureRules(rulebook));
  const ruleIdOf = options.ruleIdOf ?? ((fixture: PressureFixture) => findRule(all, fixture.rule)?.id);
  const rules = all.map((rule) => ({
    rule: rule.id,
    name: rule.name,
    fixtures: fixtures.filter((fixture) => ruleIdOf(fixture) === rule.id).map((fixture) => fixture.id),
  }));
  const perAgent: Record<string, number> = {};
  for (const agent of [...(rulebook?.agents ?? []).map((entry) => entry.id), ...agents]) perAgent[agent] = 0;
  const pressures: Partial<Record<PressureKind, number>> = Object.fromEntries(PRESSURE_KINDS.map((kind) => [kind, 0]));
  for (const fixture of fixtures) {
    const agent = fixture.agent ?? ANY_AGENT;
    perAgent[agent] = (perAgent[agent] ?? 0) + 1;
    for (const pressure of fixture.pressures) pressures[pressure] = (pressures[pressure] ?? 0) + 1;
  }
  return {
    rules,
    covered: rules.filter((entry) => entry.fixtures.length > 0).map((entry) => entry.rule),
    uncovered: rules.filter((entry) => entry.fixtures.length === 0).map((entry) => entry.rule),
    perAgent,
    pressures,
    fixtureCount: fixtures.length,
  };
}

/** Coverage of a loaded suite: its bound fixtures against the rules it measures. */
export function suiteCoverage(suite: PressureSuite): PressureCoverage {
  return pressureCoverage(
    suite.rulebook,
    suite.fixtures,
    suite.agents.map((agent) => agent.id),
    { rules: suite.rules, ruleIdOf: (fixture) => suite.boundRules.get(fixture.id)?.id },
  );
}

export interface DebtCheck {
  readonly ok: boolean;
  /** Rules without a fixture that the pinned list does not admit: a rule lost its last fixture. */
  readonly unpinned: readonly string[];
  /** Rules the pinned list still owes that now have fixtures: the debt was paid, update the list. */
  readonly paid: readonly string[];
  /** Pinned ids the rulebook does not have at all. */
  readonly unknown: readonly string[];
}

/**
 * The pinned debt list must equal the uncovered set exactly, so fixture debt can neither grow
 * (a rule loses its last fixture) nor shrink (a debt is paid) without someone editing the list.
 */
export function checkFixtureDebt(coverage: PressureCoverage, pinned: readonly string[]): DebtCheck {
  const pinnedSet = new Set(pinned);
  const uncoveredSet = new Set(coverage.uncovered);
  const unpinned = coverage.uncovered.filter((rule) => !pinnedSet.has(rule));
  const known = new Set(coverage.rules.map((entry) => entry.rule));
  const paid = [...pinnedSet].filter((rule) => known.has(rule) && !uncoveredSet.has(rule));
  const unknown = [...pinnedSet].filter((rule) => !known.has(rule));
  return { ok: unpinned.length === 0 && paid.length === 0 && unknown.length === 0, unpinned, paid, unknown };
}

export function formatDebtCheck(check: DebtCheck): string[] {
  return [
    ...check.unpinned.map((rule) => `${rule} has no pressure fixture and is not in uncovered.json: add a fixture (or pin the debt).`),
    ...check.paid.map((rule) => `${rule} now has a fixture but uncovered.json still lists it: remove it from the list.`),
    ...check.unknown.map((rule) => `${rule} is listed in uncovered.json but the rulebook has no such rule: remove it from the list.`),
  ];
}
