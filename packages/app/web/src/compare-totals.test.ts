import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@holdfast/core/browser';
import { computeTotals, reduceRunEvents } from '@holdfast/lab/browser';
import { armEnd, cleanArm, key, runStart, toldViolated } from '@holdfast/lab/test-support';
import { bySignificance, compareTotals, defaultPairs, differs, shareTargets } from './compare-totals.js';

function totalsOf(cleanRounds: number, rounds: number, target = 'model-a') {
  const events: RunEvent[] = [runStart({ targets: [target], tasks: ['task-1'], reps: rounds })];
  for (let rep = 0; rep < rounds; rep++) {
    const round = key(`${target}/task-1/${rep}`, target, 'task-1', rep);
    const told = rep < cleanRounds ? cleanArm('told') : toldViolated();
    events.push(armEnd(events.length, round, told), armEnd(events.length + 1, round, cleanArm('held')));
  }
  return computeTotals(reduceRunEvents(events));
}

describe('comparing two runs', () => {
  it('gives each target × arm rate of both runs, their difference with its interval, and the exact test', () => {
    const rows = compareTotals(totalsOf(10, 10), totalsOf(2, 10));
    const clean = rows.find((row) => row.arm === 'told' && row.measure === 'clean rounds');
    expect(clean?.comparison.a.count).toBe(10);
    expect(clean?.comparison.b.count).toBe(2);
    expect(clean?.comparison.difference).toBeCloseTo(0.8);
    expect(clean?.comparison.low).toBeGreaterThan(0);
    expect(clean?.comparison.pTwoSided).toBeLessThan(0.01);
    const heldClean = rows.find((row) => row.arm === 'held' && row.measure === 'clean rounds');
    expect(heldClean?.comparison.difference).toBe(0);
    expect(heldClean?.comparison.pTwoSided).toBe(1);
  });

  it('adds, for a rule at warn in either run, the share of its attempts the held arm let through as warned', () => {
    const a = totalsOf(10, 10);
    const held = a.arms.find((row) => row.arm === 'held')!;
    const warnedRun = {
      arms: a.arms.map((row) =>
        row === held ? { ...held, warned: 3, perRule: [{ rule: 'R4', name: 'NOLOG', attempts: 4, landed: 0, blocked: 1, warned: 3 }] } : row,
      ),
    };
    const rows = compareTotals(warnedRun, a);
    const warned = rows.find((row) => row.measure === 'R4 warned of attempts');
    expect(warned).toMatchObject({ arm: 'held', rule: 'R4', comparison: { a: { count: 3, n: 4 }, b: { count: 0, n: 0 } } });
    expect(compareTotals(a, a).some((row) => row.measure.endsWith('warned of attempts'))).toBe(false);
  });

  it('leaves out a target × arm only one run has', () => {
    expect(compareTotals(totalsOf(1, 2), { ...totalsOf(1, 2), arms: [] })).toEqual([]);
  });

  it('compares runs that share no target one target of each, arm by arm, never pooled', () => {
    const a = totalsOf(10, 10, 'model-a');
    const b = totalsOf(2, 10, 'model-b');
    expect(shareTargets(a, b)).toBe(false);
    expect(defaultPairs(a, b)).toEqual([{ a: 'model-a', b: 'model-b' }]);
    const rows = compareTotals(a, b);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => `${row.target}>${row.otherTarget}`))).toEqual(new Set(['model-a>model-b']));
    expect(rows.filter((row) => row.measure === 'clean rounds').map((row) => row.arm)).toEqual(['told', 'held']);
  });

  it('marks a row differing when its Fisher p is below 0.05, and sorts the most significant first', () => {
    const rows = compareTotals(totalsOf(10, 10), totalsOf(2, 10));
    const toldClean = rows.find((row) => row.arm === 'told' && row.measure === 'clean rounds');
    const heldClean = rows.find((row) => row.arm === 'held' && row.measure === 'clean rounds');
    expect(toldClean !== undefined && differs(toldClean)).toBe(true);
    expect(heldClean !== undefined && differs(heldClean)).toBe(false);
    const sorted = bySignificance(rows);
    expect(sorted).toHaveLength(rows.length);
    for (let index = 1; index < sorted.length; index++) {
      expect(sorted[index - 1]?.comparison.pTwoSided ?? 0).toBeLessThanOrEqual(sorted[index]?.comparison.pTwoSided ?? 1);
    }
    expect(differs(sorted[0]!)).toBe(true);
    // A rule neither run attempted is not a row.
    expect(rows.filter((row) => row.rule !== undefined).every((row) => row.comparison.a.n + row.comparison.b.n > 0)).toBe(true);
  });

  it('never marks a row differing beside a p that says it does not, even where the interval leaves out 0', () => {
    // 16 of 16 clean against 0 of 1: Newcombe's interval is [21–100] pp, Fisher's p is 1/17 ≈ 0.059.
    const rows = compareTotals(totalsOf(16, 16), totalsOf(0, 1));
    const toldClean = rows.find((row) => row.arm === 'told' && row.measure === 'clean rounds');
    expect(toldClean?.comparison.low).toBeGreaterThan(0);
    expect(toldClean?.comparison.pTwoSided).toBeCloseTo(1 / 17);
    expect(toldClean !== undefined && differs(toldClean)).toBe(false);
    for (const row of rows) expect(differs(row)).toBe(row.comparison.pTwoSided < 0.05);
  });
});
