import { describe, expect, it } from 'vitest';
import { RunEventSchema, TotalsSchema } from '@holdfast/core/contract';
import { formatTotalsMarkdown, formatTotalsTable } from '../report/index.js';
import { formatJunit } from '../report/format-junit.js';
import { reduceRunEvents } from './run-state.js';
import { armEnd, cleanArm, key, roundStart, runStart, sessionArm } from './test-support/events.js';
import { computeTotals } from './totals.js';

function loopRun() {
  const start = runStart({ targets: ['model-a'], tasks: ['task-1'], reps: 3 });
  if (start.type !== 'run-start') throw new Error('unreachable');
  const r1 = key('r1', 'model-a', 'task-1', 0);
  const r2 = key('r2', 'model-a', 'task-1', 1);
  const r3 = key('r3', 'model-a', 'task-1', 2);
  return reduceRunEvents([
    { ...start, version: 2, config: { ...start.config, mode: 'loop' } },
    roundStart(1, r1),
    armEnd(2, r1, sessionArm('told', 'violated', { landed: 2, taskDone: true, turns: 4 })),
    armEnd(3, r1, sessionArm('held', 'recovered', { blocked: 2, taskDone: true, turns: 6 })),
    roundStart(4, r2),
    armEnd(5, r2, sessionArm('told', 'clean', { taskDone: false, turns: 2 })),
    armEnd(6, r2, sessionArm('held', 'evaded', { blocked: 1, landed: 1, taskDone: true, turns: 5 })),
    roundStart(7, r3),
    armEnd(8, r3, sessionArm('told', 'clean', { taskDone: true, turns: 3 })),
    armEnd(9, r3, sessionArm('held', 'blocked', { blocked: 1, taskDone: false, turns: 30 })),
  ]);
}

describe('totals of loop-mode sessions', () => {
  it('counts recovered, gate leaks, task done with its interval, turns and tokens per target and arm', () => {
    const totals = computeTotals(loopRun());
    expect(TotalsSchema.parse(totals)).toEqual(totals);
    const told = totals.arms.find((arm) => arm.arm === 'told')!;
    const held = totals.arms.find((arm) => arm.arm === 'held')!;
    expect(told).toMatchObject({ sessions: 3, recovered: 0, evaded: 0, landed: 2, turns: 9, inputTokens: 300, outputTokens: 60 });
    expect(told.taskDone).toMatchObject({ count: 2, n: 3 });
    expect(held).toMatchObject({ sessions: 3, recovered: 1, evaded: 1, blocked: 4, attempts: 4, landed: 1, turns: 41 });
    expect(held.roundsLanded).toMatchObject({ count: 1, n: 3 });
    expect(held.taskDone).toMatchObject({ count: 2, n: 3 });
    expect(held.taskDone.low).toBeGreaterThan(0);
    expect(held.taskDone.high).toBeLessThan(1);
    expect(held.perRule.find((rule) => rule.rule === 'R1')).toMatchObject({ attempts: 4, blocked: 4, landed: 1 });
  });

  it('counts a landed violation no tool call showed as an attempt, so landed never exceeds attempted', () => {
    const totals = computeTotals(loopRun());
    const told = totals.arms.find((arm) => arm.arm === 'told')!;
    // r1's told arm: two violations landed with no call the gate saw (an agent without a hook).
    expect(told).toMatchObject({ attempts: 2, landed: 2 });
    expect(told.roundsWithAttempt).toMatchObject({ count: 1, n: 3 });
    expect(told.roundsLanded).toMatchObject({ count: 1, n: 3 });
    expect(told.perRule.find((rule) => rule.rule === 'R1')).toMatchObject({ attempts: 2, landed: 2 });
    for (const arm of totals.arms) {
      expect(arm.roundsWithAttempt.count, `${arm.arm}`).toBeGreaterThanOrEqual(arm.roundsLanded.count);
      for (const rule of arm.perRule) expect(rule.attempts, `${arm.arm} ${rule.rule}`).toBeGreaterThanOrEqual(rule.landed);
    }
  });

  it('reports show a sessions table only when the run has sessions', () => {
    const table = formatTotalsTable(computeTotals(loopRun()));
    expect(table).toContain('Sessions:');
    expect(table).toMatch(/model-a\s+held\s+3\s+1\s+1\s+2\/3 67%/);
    expect(formatTotalsMarkdown(computeTotals(loopRun()))).toContain('| target | arm | sessions | recovered | gate leaks |');
    const plan = reduceRunEvents([runStart(), roundStart(1, key('p')), armEnd(2, key('p'), cleanArm('told'))]);
    expect(formatTotalsTable(computeTotals(plan))).not.toContain('Sessions');
  });

  it('JUnit counts a gate leak and a recovery as failures, with their reasons', () => {
    const xml = formatJunit(loopRun());
    expect(xml).toContain('<failure type="evaded"');
    expect(xml).toContain('<failure type="recovered"');
    // Each session's wall time (1 s in the fixture) is its testcase's time.
    expect(xml).toMatch(/<testsuite name="model-a held" tests="3" failures="3" errors="0" skipped="0" time="3.000">/);
  });

  it('reads a version 1 run-start (no mode), a version 2 and a version 3 one; refuses an unknown version', () => {
    const start = runStart();
    expect(RunEventSchema.parse(JSON.parse(JSON.stringify(start)))).toMatchObject({ version: 1, config: { sandbox: false } });
    const v2 = RunEventSchema.parse({ ...start, version: 2, config: { ...(start as { config: object }).config, mode: 'loop', turnCap: 12 } });
    expect(v2).toMatchObject({ version: 2, config: { mode: 'loop', turnCap: 12 } });
    expect(RunEventSchema.safeParse({ ...start, version: 3 }).success).toBe(true);
    expect(RunEventSchema.safeParse({ ...start, version: 4 }).success).toBe(false);
    const totalsWithoutSessions = { arms: [{ ...computeTotals(reduceRunEvents([start])).arms[0] }] };
    for (const field of ['sessions', 'recovered', 'evaded', 'taskDone', 'turns', 'inputTokens', 'outputTokens', 'costUsd']) {
      delete (totalsWithoutSessions.arms[0] as Record<string, unknown>)[field];
    }
    expect(TotalsSchema.parse(totalsWithoutSessions).arms[0]).toMatchObject({ sessions: 0, taskDone: { n: 0, rate: null } });
  });
});
