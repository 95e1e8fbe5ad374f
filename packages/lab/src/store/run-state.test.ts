import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@holdfast/core/contract';
import { findRound, initialRunState, reduceRunEvent, reduceRunEvents } from './run-state.js';
import { armEnd, cleanArm, heldBlocked, key, roundStart, runStart, toldViolated } from './test-support/events.js';

const TIME = '2025-01-01T00:01:00.000Z';
const r1 = key('r1', 'model-a', 'task-1', 0);
const r2 = key('r2', 'model-a', 'task-1', 1);

function approvalRequest(seq: number, approvalId: string): RunEvent {
  return {
    type: 'approval-request',
    seq,
    time: TIME,
    runId: 'run-1',
    ...r1,
    approvalId,
    arm: 'held',
    message: 'commit "feat: add a"?',
    files: [{ path: 'src/a.ts', content: 'export const a = 2;\n' }],
    deadline: '2025-01-01T00:02:30.000Z',
  };
}

function approvalEnd(seq: number, approvalId: string, decision: 'approved' | 'refused', by: 'person' | 'timeout'): RunEvent {
  return { type: 'approval-end', seq, time: TIME, runId: 'run-1', ...r1, approvalId, decision, by };
}

const SEQUENCE: RunEvent[] = [
  runStart({ reps: 2, demo: 'hand-written replies' }),
  roundStart(1, r1),
  armEnd(2, r1, toldViolated()),
  approvalRequest(3, 'ap-1'),
  roundStart(4, r2),
  approvalRequest(5, 'ap-2'),
  approvalEnd(6, 'ap-1', 'refused', 'timeout'),
  armEnd(7, r1, heldBlocked()),
  armEnd(8, r2, cleanArm('held')),
  { type: 'totals', seq: 9, time: TIME, runId: 'run-1', totals: { arms: [] } },
  { type: 'run-end', seq: 10, time: TIME, runId: 'run-1', status: 'interrupted', reason: 'Ctrl-C' },
];

describe('reduceRunEvent', () => {
  it('starts empty', () => {
    const state = initialRunState();
    expect(state.lastSeq).toBe(-1);
    expect(state.rounds.length).toBe(0);
    expect(state.start).toBeUndefined();
  });

  it('turns a hand-made run into rounds, approvals, totals and an end', () => {
    const state = reduceRunEvents(SEQUENCE);
    expect(state.runId).toBe('run-1');
    expect(state.start?.demo).toBe('hand-written replies');
    expect(state.start?.config.reps).toBe(2);
    expect(state.rounds.toArray().map((round) => [round.roundId, round.told?.verdict, round.held?.verdict])).toEqual([
      ['r1', 'violated', 'blocked'],
      ['r2', undefined, 'clean'],
    ]);
    expect(state.pendingApprovals.map((approval) => approval.approvalId)).toEqual(['ap-2']);
    expect(state.pendingApprovals[0]?.request?.deadline).toBe('2025-01-01T00:02:30.000Z');
    expect(state.finishedApprovals.toArray()).toMatchObject([{ approvalId: 'ap-1', request: { arm: 'held' }, end: { decision: 'refused', by: 'timeout' } }]);
    expect(state.totals).toEqual({ arms: [] });
    expect(state.end).toEqual({ status: 'interrupted', reason: 'Ctrl-C', time: TIME });
    expect(state.lastSeq).toBe(10);
    expect(state.events).toBe(11);
  });

  it('never changes the state it was given, and shares what did not change', () => {
    const before = reduceRunEvents(SEQUENCE.slice(0, 5));
    const snapshot = JSON.stringify(before);
    const firstRound = before.rounds.at(0);
    const after = reduceRunEvent(before, armEnd(5, r2, cleanArm('told')));
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(after).not.toBe(before);
    expect(after.rounds).not.toBe(before.rounds);
    expect(after.rounds.at(0)).toBe(firstRound);
    expect(after.rounds.at(1)).not.toBe(before.rounds.at(1));
    expect(after.pendingApprovals).toBe(before.pendingApprovals);
  });

  it('ignores an event it has already seen, returning the same state', () => {
    const state = reduceRunEvents(SEQUENCE);
    expect(reduceRunEvent(state, SEQUENCE[4]!)).toBe(state);
    expect(reduceRunEvents([...SEQUENCE, ...SEQUENCE])).toEqual(state);
  });

  it('creates a round for an arm-end whose round-start it never saw', () => {
    const state = reduceRunEvents([armEnd(3, key('late', 'model-b', 'task-2', 4), cleanArm('told'))]);
    expect(state.rounds.toArray()).toEqual([{ roundId: 'late', target: 'model-b', task: 'task-2', rep: 4, told: cleanArm('told') }]);
    expect(state.runId).toBe('run-1');
  });

  it('records an approval end without its request as finished', () => {
    const state = reduceRunEvents([approvalEnd(0, 'lost', 'approved', 'person')]);
    expect(state.pendingApprovals).toEqual([]);
    expect(state.finishedApprovals.toArray()).toEqual([{ approvalId: 'lost', ...r1, end: { decision: 'approved', by: 'person', time: TIME } }]);
  });

  it('treats a second run-start as a resume: rounds stay, the end is cleared, a restarted round loses its arms', () => {
    const ended = reduceRunEvents(SEQUENCE);
    const resumed = reduceRunEvents([runStart({ seq: 11 }), roundStart(12, r2)], ended);
    expect(resumed.end).toBeUndefined();
    expect(resumed.rounds.length).toBe(2);
    expect(resumed.rounds.at(0)?.held?.verdict).toBe('blocked');
    expect(resumed.rounds.at(1)).toEqual({ ...r2 });
  });

  it('finds rounds correctly in states forked from the same parent', () => {
    const parent = reduceRunEvents([runStart()]);
    const left = reduceRunEvents([roundStart(1, key('a')), roundStart(2, key('shared'))], parent);
    const right = reduceRunEvents([roundStart(1, key('b')), roundStart(2, key('c')), roundStart(3, key('shared'))], parent);
    expect(findRound(left, 'shared')).toBe(1);
    expect(findRound(right, 'shared')).toBe(2);
    expect(findRound(left, 'b')).toBe(-1);
    expect(findRound(right, 'a')).toBe(-1);
    expect(findRound(parent, 'shared')).toBe(-1);
    const updated = reduceRunEvent(left, armEnd(3, key('shared'), cleanArm('told')));
    expect(updated.rounds.toArray().map((round) => [round.roundId, round.told?.verdict])).toEqual([
      ['a', undefined],
      ['shared', 'clean'],
    ]);
  });

  it('keeps thousands of rounds in start order', () => {
    const events: RunEvent[] = [runStart()];
    let seq = 1;
    for (let index = 0; index < 3000; index++) events.push(roundStart(seq++, key(`round-${index}`, 'model-a', 'task-1', index)));
    for (let index = 2999; index >= 0; index -= 7) events.push(armEnd(seq++, key(`round-${index}`, 'model-a', 'task-1', index), cleanArm('held')));
    const state = reduceRunEvents(events);
    expect(state.rounds.length).toBe(3000);
    expect(state.rounds.toArray().every((round, index) => round.rep === index)).toBe(true);
    expect(state.rounds.toArray().filter((round) => round.held !== undefined).length).toBe(Math.ceil(3000 / 7));
    expect(state.rounds.at(2999)?.held?.verdict).toBe('clean');
    expect(state.rounds.at(2998)?.held).toBeUndefined();
  });
});
