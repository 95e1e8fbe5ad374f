import { describe, expect, it } from 'vitest';
import type { ArmResult } from '@holdfast/core/contract';
import { reduceRunEvents } from '../store/run-state.js';
import { armEnd, cleanArm, key, roundStart, runStart, toldViolated } from '../store/test-support/events.js';
import { computeTotals } from '../store/totals.js';
import { formatJunit } from './format-junit.js';
import { formatTotalsMarkdown, formatTotalsTable } from './format-totals.js';
import { formatHeadlines } from './headline.js';

/** A held arm that wrote past its sandbox's cap before any violation; its untouched-tree check would even pass. */
function overCap(): ArmResult {
  return {
    ...cleanArm('held'),
    verdict: 'over-cap',
    reason: 'The arm stopped at action 0: sandbox over its 1 MB cap. Counted as a failure of the arm, not as an error.',
    error: { code: 'E_SANDBOX_CAP', message: 'sandbox over its 1 MB cap' },
    sandbox: {
      isolation: 'none',
      isolationDetail: 'test',
      baseCommit: 'abc',
      commits: [],
      diff: { text: '', truncated: false, bytes: 0 },
      changedPaths: [],
      commands: [],
      refusedWrites: [],
      taskDone: { command: 'npm test', passed: true, outputTail: '' },
    },
  };
}

function run() {
  const r1 = key('r1', 'model-a', 'task-1', 0);
  const r2 = key('r2', 'model-a', 'task-1', 1);
  return reduceRunEvents([
    runStart({ targets: ['model-a'], tasks: ['task-1'], reps: 2 }),
    roundStart(1, r1),
    armEnd(2, r1, toldViolated()),
    armEnd(3, r1, overCap()),
    roundStart(4, r2),
    armEnd(5, r2, cleanArm('told')),
    armEnd(6, r2, cleanArm('held')),
  ]);
}

describe('an arm over its sandbox cap', () => {
  it('stays in n as a failure: never clean, never done, never an error', () => {
    const held = computeTotals(run()).arms.find((arm) => arm.arm === 'held')!;
    expect(held.overCap).toBe(1);
    expect(held.errors).toBe(0);
    expect(held.errorReasons).toEqual([]);
    expect(held.clean).toMatchObject({ count: 1, n: 2 });
    expect(held.taskDone.count).toBe(0);
    expect(held.cleanAndDone.count).toBe(0);
  });

  it('is named in the headline, the table, the Markdown report and JUnit', () => {
    const state = run();
    const totals = computeTotals(state);
    expect(formatHeadlines(totals)).toContain('Over the sandbox cap: told 0, held 1 (failures, in n).');
    const table = formatTotalsTable(totals).split('\n');
    const columns = table[0]!.split(/\s{2,}/);
    const heldRow = table.find((line) => line.startsWith('model-a') && /\bheld\b/.test(line))!.split(/\s{2,}/);
    expect(heldRow[columns.indexOf('over cap')]).toBe('1');
    expect(formatTotalsMarkdown(totals)).toContain('| over cap |');
    expect(formatTotalsMarkdown(totals)).toContain('over cap = arms whose sandbox passed its size cap');
    const junit = formatJunit(state);
    expect(junit).toMatch(/<testcase[^>]*>\s*<failure[^>]*over-cap/);
  });
});
