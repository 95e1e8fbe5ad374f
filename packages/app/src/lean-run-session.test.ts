import { describe, expect, it } from 'vitest';
import { ArmEndEventSchema } from '@holdfast/core/contract';
import { computeTotals } from '@holdfast/lab/store';
import { armEnd, key, sessionArm } from '@holdfast/lab/test-support';
import { leanArmResult, leanRunFileLine } from './lean-run.js';

describe('the lean view of a session arm', () => {
  const full = sessionArm('held', 'evaded', { blocked: 1, landed: 1, taskDone: true });
  full.session!.calls[0]!.output = { text: 'Refused by the repository’s rules', truncated: false, bytes: 34 };
  full.session!.taskDone!.outputTail = 'refunds: ok';

  it('blanks tool inputs, outputs, written contents and the test output tail; keeps what totals read', () => {
    const lean = leanArmResult(full);
    const call = lean.session!.calls[0]!;
    expect(call.input.text).toBe('');
    expect(call.output?.text).toBe('');
    expect(call.actions[0]).toMatchObject({ type: 'write', content: '' });
    expect(lean.session!.taskDone?.outputTail).toBe('');
    expect(call.checks).toEqual(full.session!.calls[0]!.checks);
    const round = { roundId: 'r', target: 't', task: 'k', held: full };
    expect(computeTotals({ rounds: [{ ...round, held: lean }] })).toEqual(computeTotals({ rounds: [round] }));
  });

  it('trims a run file line the same way, and the line stays a valid event', () => {
    const line = leanRunFileLine(JSON.stringify(armEnd(3, key('r'), full)));
    const event = ArmEndEventSchema.parse(JSON.parse(line.text));
    expect(event.result).toEqual(leanArmResult(full));
  });
});
