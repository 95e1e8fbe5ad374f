import { describe, expect, it } from 'vitest';
import { PressureFixtureSchema } from '@holdfast/core/contract';
import { ANY_AGENT, checkFixtureDebt, pressureCoverage } from './coverage.js';
import { sampleFixture, sampleRulebook } from './test-support/sample.js';

const rulebook = sampleRulebook();
const fixture = (id: string, rule: string, agent?: string) =>
  PressureFixtureSchema.parse({ ...sampleFixture(), id, rule, ...(agent === undefined ? { agent: undefined } : { agent }) });

describe('pressureCoverage', () => {
  const fixtures = [fixture('PRS-A', 'R1', 'implementer'), fixture('PRS-B', 'R1'), fixture('PRS-C', 'R4', 'reviewer')];
  const coverage = pressureCoverage(rulebook, fixtures);

  it('splits rules into covered and uncovered, with fixtures per rule', () => {
    expect(coverage.covered).toEqual(['R1', 'R4']);
    expect(coverage.uncovered).toEqual(['R6']);
    expect(coverage.rules[0]).toEqual({ rule: 'R1', name: 'SECRET', fixtures: ['PRS-A', 'PRS-B'] });
  });

  it('counts fixtures per agent, including declared agents with none', () => {
    expect(coverage.perAgent).toEqual({ implementer: 1, reviewer: 1, [ANY_AGENT]: 1 });
  });

  it('lists agents declared by agent files, and counts prose rules and numbered fixtures', () => {
    const numbered = { ...rulebook, proseRules: [{ id: 'M8', name: 'ROOT-CAUSE', number: 8, prose: 'Fix the cause.' }] };
    const withNumber = PressureFixtureSchema.parse({ ...sampleFixture(), id: 'PRS-N', rule: 8, agent: 'np-executor' });
    const result = pressureCoverage(numbered, [withNumber], ['np-executor', 'np-verifier']);
    expect(result.rules.at(-1)).toEqual({ rule: 'M8', name: 'ROOT-CAUSE', fixtures: ['PRS-N'] });
    expect(result.perAgent).toMatchObject({ 'np-executor': 1, 'np-verifier': 0 });
  });

  it('builds a pressure histogram', () => {
    expect(coverage.pressures).toMatchObject({ time: 3, authority: 3, exhaustion: 3, social: 0 });
  });
});

describe('checkFixtureDebt', () => {
  const covered = pressureCoverage(rulebook, [fixture('PRS-A', 'R1'), fixture('PRS-C', 'R4'), fixture('PRS-D', 'R6')]);

  it('passes when the pinned list equals the uncovered set', () => {
    const partial = pressureCoverage(rulebook, [fixture('PRS-A', 'R1')]);
    expect(checkFixtureDebt(partial, ['R4', 'R6']).ok).toBe(true);
    expect(checkFixtureDebt(covered, []).ok).toBe(true);
  });

  it('fails when a rule loses its last fixture', () => {
    const lost = pressureCoverage(rulebook, [fixture('PRS-A', 'R1'), fixture('PRS-C', 'R4')]);
    expect(checkFixtureDebt(lost, [])).toEqual({ ok: false, unpinned: ['R6'], paid: [], unknown: [] });
  });

  it('fails when a debt is paid without updating the list', () => {
    expect(checkFixtureDebt(covered, ['R6'])).toEqual({ ok: false, unpinned: [], paid: ['R6'], unknown: [] });
  });

  it('fails when the list pins a rule the rulebook does not have', () => {
    expect(checkFixtureDebt(covered, ['R42'])).toEqual({ ok: false, unpinned: [], paid: [], unknown: ['R42'] });
  });
});
