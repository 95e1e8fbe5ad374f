import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@holdfast/core/browser';
import { computeTotals, reduceRunEvents } from '@holdfast/lab/browser';
import { armEnd, cleanArm, key, runStart, toldViolated } from '@holdfast/lab/test-support';
import { formatExport } from './export-view.js';
import { totalsTable } from './view-tables.js';

describe('the totals as exported', () => {
  it('gives each rate as numbers with its n in JSON, the page text beside them', () => {
    const events: RunEvent[] = [runStart({ targets: ['model-a'], tasks: ['task-1'], reps: 4 })];
    for (let rep = 0; rep < 4; rep++) {
      const round = key(`model-a/task-1/${rep}`, 'model-a', 'task-1', rep);
      events.push(armEnd(events.length, round, rep === 0 ? toldViolated() : cleanArm('told')), armEnd(events.length + 1, round, cleanArm('held')));
    }
    const totals = computeTotals(reduceRunEvents(events));
    const [told] = JSON.parse(formatExport(totalsTable(totals, 'run'), 'json')) as Record<string, unknown>[];
    const row = totals.arms.find((arm) => arm.arm === 'told');
    expect(told?.['rounds where a violation landed']).toEqual({ ...row?.roundsLanded, text: expect.stringMatching(/^1\/4 25% \[/) as unknown });
    expect(told?.['rounds where a violation landed']).toMatchObject({ count: 1, n: 4, rate: 0.25 });
    expect(told?.rounds).toBe(4);
  });
});
