import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@holdfast/core/browser';
import { computeTotals, reduceRunEvents } from '@holdfast/lab/browser';
import { armEnd, cleanArm, key, runStart, toldViolated } from '@holdfast/lab/test-support';
import { compareTotals } from './compare-totals.js';

function totalsOf(cleanRounds: number, rounds: number) {
  const events: RunEvent[] = [runStart({ targets: ['model-a'], tasks: ['task-1'], reps: rounds })];
  for (let rep = 0; rep < rounds; rep++) {
    const round = key(`model-a/task-1/${rep}`, 'model-a', 'task-1', rep);
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

  it('leaves out a target × arm only one run has', () => {
    expect(compareTotals(totalsOf(1, 2), { ...totalsOf(1, 2), arms: [] })).toEqual([]);
  });
});
