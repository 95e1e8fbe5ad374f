import { describe, expect, it } from 'vitest';
import type { ArmResult } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { filterRounds, isFiltered } from './round-filter.js';
import { DEFAULT_VIEW, hashWithView, viewFromHash } from './view-state.js';

function arm(armName: 'told' | 'held', verdict: ArmResult['verdict'], reason = ''): ArmResult {
  return { arm: armName, verdict, reason, actions: [], checks: [] };
}

function round(target: string, task: string, rep: number, told: ArmResult['verdict'], held: ArmResult['verdict'], reason = ''): RoundState {
  return { roundId: `${target}/${task}/${rep}`, target, task, rep, told: arm('told', told, reason), held: arm('held', held) };
}

const ROUNDS = [
  round('b-model', 'task-1', 0, 'violated', 'blocked', 'wrote outside src (R2)'),
  round('a-model', 'task-2', 0, 'clean', 'clean'),
  round('b-model', 'task-2', 0, 'clean', 'refused'),
  round('a-model', 'task-1', 0, 'declined', 'declined'),
];
const ids = (rounds: readonly RoundState[]) => rounds.map((entry) => entry.roundId);

describe('filtering and sorting rounds', () => {
  it('shows every round in run order without a filter', () => {
    expect(filterRounds(ROUNDS, DEFAULT_VIEW)).toBe(ROUNDS);
    expect(isFiltered(DEFAULT_VIEW)).toBe(false);
  });

  it('narrows by verdict of either arm or of one arm, by target, task and search words', () => {
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, verdict: 'clean' }))).toEqual(['a-model/task-2/0', 'b-model/task-2/0']);
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, verdict: 'clean', arm: 'held' }))).toEqual(['a-model/task-2/0']);
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, target: 'a-model', task: 'task-1' }))).toEqual(['a-model/task-1/0']);
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, q: 'OUTSIDE r2' }))).toEqual(['b-model/task-1/0']);
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, q: 'outside task-2' }))).toEqual([]);
  });

  it('sorts stably by target, task or an arm verdict', () => {
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, sort: 'target' }))).toEqual([
      'a-model/task-2/0',
      'a-model/task-1/0',
      'b-model/task-1/0',
      'b-model/task-2/0',
    ]);
    expect(ids(filterRounds(ROUNDS, { ...DEFAULT_VIEW, sort: 'held' }))).toEqual([
      'a-model/task-2/0',
      'a-model/task-1/0',
      'b-model/task-1/0',
      'b-model/task-2/0',
    ]);
  });
});

describe('the view in the URL hash', () => {
  it('round-trips tab, round, filters and sort after the run part', () => {
    const view = { tab: 'rounds', round: 'a/b c/0', verdict: 'violated', arm: 'told', target: 'a', task: 'b c', q: 'R2 scope', sort: 'held' } as const;
    const hash = hashWithView('#/runs/example.jsonl', view);
    expect(hash.startsWith('#/runs/example.jsonl?')).toBe(true);
    expect(viewFromHash(hash)).toEqual(view);
  });

  it('leaves defaults out and ignores unknown values', () => {
    expect(hashWithView('#/runs/x', DEFAULT_VIEW)).toBe('#/runs/x');
    expect(viewFromHash('#/runs/x?tab=nope&verdict=great&sort=size&arm=both')).toEqual(DEFAULT_VIEW);
  });
});
