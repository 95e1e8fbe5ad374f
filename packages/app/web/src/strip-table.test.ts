import { describe, expect, it } from 'vitest';
import type { ArmResult } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { stripCounts, stripSummary } from './components/strip-table.js';

const arm = (name: 'told' | 'held', verdict: ArmResult['verdict']): ArmResult => ({ arm: name, verdict, reason: '', actions: [], checks: [] });

describe('the strip counted', () => {
  const rounds: RoundState[] = [
    { roundId: 'a/t/0', target: 'a', task: 't', rep: 0, told: arm('told', 'violated'), held: arm('held', 'blocked') },
    { roundId: 'a/t/1', target: 'a', task: 't', rep: 1, told: arm('told', 'violated') },
    { roundId: 'b/t/0', target: 'b', task: 't', rep: 0, told: arm('told', 'clean'), held: arm('held', 'clean') },
  ];

  it('counts verdicts per target and arm, running arms apart, targets in the run order', () => {
    expect(stripCounts(rounds, ['b', 'a'])).toEqual([
      { target: 'b', arm: 'told', verdicts: { clean: 1 }, running: 0 },
      { target: 'b', arm: 'held', verdicts: { clean: 1 }, running: 0 },
      { target: 'a', arm: 'told', verdicts: { violated: 2 }, running: 0 },
      { target: 'a', arm: 'held', verdicts: { blocked: 1 }, running: 1 },
    ]);
  });

  it('says the same in one sentence', () => {
    expect(stripSummary(stripCounts(rounds, ['a', 'b']), rounds.length)).toBe(
      'Verdicts of 3 rounds. a told: 2 violated. a held: 1 blocked, 1 running. b told: 1 clean. b held: 1 clean.',
    );
  });
});
