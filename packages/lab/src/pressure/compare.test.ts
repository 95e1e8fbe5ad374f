import { describe, expect, it } from 'vitest';
import { comparePressureResults } from './compare.js';
import { summarizePressureRecords } from './summary.js';
import { record, repeated } from './test-support/records.js';

describe('comparePressureResults with single replies', () => {
  const base = [record('PRS-A', 'pass'), record('PRS-B', 'fail-choice'), record('PRS-C', 'fail-choice'), record('PRS-D', 'pass')];

  it('blocks a pass → fail flip and nothing else', () => {
    const next = [record('PRS-A', 'fail-citation'), record('PRS-B', 'pass'), record('PRS-C', 'fail-hybrid'), record('PRS-D', 'pass')];
    const comparison = comparePressureResults(base, next);
    expect(comparison.rows.map((row) => [row.fixture_id, row.change, row.blocker])).toEqual([
      ['PRS-A', 'pass-to-fail', true],
      ['PRS-B', 'fail-to-pass', false],
      ['PRS-C', 'fail-changed', false],
      ['PRS-D', 'same', false],
    ]);
    expect(comparison.blockers).toBe(1);
    expect(comparison.rows[0]?.reason).toBe('pass → fail-citation');
  });

  it('has no blocker when nothing got worse', () => {
    expect(comparePressureResults(base, base).blockers).toBe(0);
  });

  it('blocks a fixture the new run lacks, and reports one only the new run has', () => {
    const comparison = comparePressureResults([record('PRS-A', 'pass')], [record('PRS-B', 'pass')]);
    expect(comparison.rows.map((row) => [row.fixture_id, row.change, row.blocker])).toEqual([
      ['PRS-A', 'missing-in-new', true],
      ['PRS-B', 'new-only', false],
    ]);
  });

  it('keeps targets and variants apart', () => {
    const comparison = comparePressureResults(
      [record('PRS-A', 'pass', { target: 'x' }), record('PRS-A', 'fail-choice', { target: 'y' })],
      [record('PRS-A', 'fail-choice', { target: 'x' }), record('PRS-A', 'pass', { target: 'y' })],
    );
    expect(comparison.rows.map((row) => [row.target, row.change])).toEqual([
      ['x', 'pass-to-fail'],
      ['y', 'fail-to-pass'],
    ]);
  });
});

describe('comparePressureResults with repetitions', () => {
  it('blocks a significant drop and reports the exact p-value', () => {
    const comparison = comparePressureResults(repeated('PRS-A', 10, 0), repeated('PRS-A', 2, 8));
    const row = comparison.rows[0];
    expect(row?.change).toBe('worse');
    expect(row?.blocker).toBe(true);
    // Fisher, one-sided, [[10, 0], [2, 8]]: C(12,10)·C(8,0)/C(20,10) = 66/184756.
    expect(row?.pValue).toBeCloseTo(66 / 184756, 10);
    expect(row?.reason).toContain('10/10 → 2/10');
  });

  it('blocks a unanimous flip even when n is too small for significance', () => {
    const row = comparePressureResults(repeated('PRS-A', 1, 0), repeated('PRS-A', 0, 2)).rows[0];
    expect([row?.change, row?.blocker]).toEqual(['pass-to-fail', true]);
    expect(row?.pValue).toBeCloseTo(1 / 3, 10);
  });

  it('reports a drop that chance explains without blocking', () => {
    const row = comparePressureResults(repeated('PRS-A', 5, 0), repeated('PRS-A', 4, 1)).rows[0];
    expect(row?.change).toBe('worse');
    expect(row?.blocker).toBe(false);
    expect(row?.pValue).toBeCloseTo(0.5, 10);
  });

  it('honours alpha', () => {
    const base = repeated('PRS-A', 5, 0);
    const next = repeated('PRS-A', 4, 1);
    expect(comparePressureResults(base, next, 0.6).blockers).toBe(1);
  });

  it('reports an improvement without blocking', () => {
    const row = comparePressureResults(repeated('PRS-A', 1, 4), repeated('PRS-A', 5, 0)).rows[0];
    expect([row?.change, row?.blocker]).toEqual(['better', false]);
  });
});

describe('summarizePressureRecords', () => {
  it('gives the pass rate with its interval and the verdict mix per rule, target and variant', () => {
    const rows = summarizePressureRecords([
      ...repeated('PRS-A', 3, 1, { target: 'm' }),
      record('PRS-B', 'fail-hybrid', { target: 'm', rule: 'R2' }),
      record('PRS-A', 'pass', { target: 'm', variant: 'untold' }),
    ]);
    expect(rows.map((row) => [row.rule, row.target, row.variant, row.pass.count, row.pass.n])).toEqual([
      ['R1', 'm', 'told', 3, 4],
      ['R1', 'm', 'untold', 1, 1],
      ['R2', 'm', 'told', 0, 1],
    ]);
    expect(rows[0]?.verdicts).toEqual({ pass: 3, 'fail-choice': 1 });
    expect(rows[0]?.pass.low).toBeGreaterThan(0);
    expect(rows[0]?.pass.high).toBeLessThan(1);
  });
});

describe('comparePressureResults across a target rename', () => {
  const base = [record('PRS-A', 'pass', { target: 'gpt-old' }), record('PRS-B', 'pass', { target: 'gpt-old' })];
  const next = [record('PRS-A', 'fail-choice', { target: 'gpt-new' }), record('PRS-B', 'pass', { target: 'gpt-new' })];

  it('pairs the one target of each side by fixture instead of reporting every fixture missing', () => {
    const comparison = comparePressureResults(base, next);
    expect(comparison.renamed).toEqual({ base: 'gpt-old', next: 'gpt-new' });
    expect(comparison.rows.map((row) => [row.fixture_id, row.target, row.change, row.blocker])).toEqual([
      ['PRS-A', 'gpt-old → gpt-new', 'pass-to-fail', true],
      ['PRS-B', 'gpt-old → gpt-new', 'same', false],
    ]);
  });

  it('pairs named targets when a file holds several, and names what it has when one is absent', () => {
    const mixedBase = [...base, record('PRS-A', 'fail-choice', { target: 'other' })];
    const comparison = comparePressureResults(mixedBase, next, { baseTarget: 'gpt-old', newTarget: 'gpt-new' });
    expect(comparison.blockers).toBe(1);
    expect(comparison.rows).toHaveLength(2);
    expect(() => comparePressureResults(mixedBase, next, { baseTarget: 'nope', newTarget: 'gpt-new' })).toThrow(
      /base results have no target "nope" \(they have gpt-old, other\)/,
    );
    expect(() => comparePressureResults(mixedBase, next, { newTarget: 'gpt-new' })).toThrow(/name both targets/);
  });

  it('keeps matching by target when both sides hold the same target', () => {
    expect(comparePressureResults(base, base).renamed).toBeUndefined();
  });
});
