import type { PressureFixture, PressureRecord, PressureResponseLine, Rulebook } from '@holdfast/core/contract';
import { UnknownFixtureError } from './refusal.js';
import { findRule, formatRuleRef, pressureRules } from './rule-ref.js';
import { scorePressureResponse } from './score.js';
import type { ScoredRule } from './score.js';

export interface ScoreResponsesOptions {
  readonly requireCitation?: boolean;
  /** Stamps each record; injected so output is reproducible. */
  readonly now: () => Date;
  /** The rule each fixture is bound to (`suiteRuleOf`); by default its reference looked up in the rulebook. */
  readonly ruleOf?: (fixture: PressureFixture) => ScoredRule;
}

/** Finds a fixture by id or throws `UnknownFixtureError` naming the ones that exist. */
export function fixtureById(fixtures: readonly PressureFixture[], id: string): PressureFixture {
  const fixture = fixtures.find((candidate) => candidate.id === id);
  if (fixture === undefined)
    throw new UnknownFixtureError(
      id,
      fixtures.map((candidate) => candidate.id),
    );
  return fixture;
}

/**
 * The rule a fixture puts under pressure, as the rulebook names it. Lint guarantees it exists; a
 * fixture scored without lint keeps its reference as the id.
 */
export function ruleOf(rulebook: Rulebook | undefined, fixture: PressureFixture): ScoredRule {
  const rule = rulebook === undefined ? undefined : findRule(pressureRules(rulebook), fixture.rule);
  if (rule !== undefined) return { id: rule.id, name: rule.name, number: rule.number };
  const id = formatRuleRef(fixture.rule);
  return { id, name: id, number: typeof fixture.rule === 'number' ? fixture.rule : undefined };
}

/** Scores recorded (or hand-written) replies into result records, one per line, in order. */
export function scoreResponseLines(
  fixtures: readonly PressureFixture[],
  rulebook: Rulebook | undefined,
  lines: readonly PressureResponseLine[],
  options: ScoreResponsesOptions,
): PressureRecord[] {
  return lines.map((line) => {
    const fixture = fixtureById(fixtures, line.fixture_id);
    const rule = options.ruleOf?.(fixture) ?? ruleOf(rulebook, fixture);
    const result = scorePressureResponse(fixture, line.response, {
      rule,
      requireCitation: options.requireCitation ?? true,
    });
    return {
      type: 'pressure-result',
      version: 1,
      time: options.now().toISOString(),
      fixture_id: fixture.id,
      rule: rule.id,
      ...(fixture.agent === undefined ? {} : { agent: fixture.agent }),
      ...(line.target === undefined ? {} : { target: line.target }),
      rep: line.rep ?? 0,
      variant: line.variant ?? 'told',
      origin: line.origin ?? 'recorded',
      response: line.response,
      result,
    };
  });
}
