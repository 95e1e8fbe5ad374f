import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PendingApprovals, decideWithDeadline, policyApprover } from './approvals.js';
import type { ApprovalRequest } from './approvals.js';

function request(approvalId: string): ApprovalRequest {
  return { approvalId, roundId: 't/task/0', target: 't', task: 'task', rep: 0, message: 'Add health check', files: [], deadline: new Date(90_000) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('decideWithDeadline', () => {
  it("leaves nothing on the run's signal once decided: a long run's approvals are not kept until it ends", async () => {
    const run = new AbortController();
    for (let index = 0; index < 50; index += 1) {
      expect(await decideWithDeadline(policyApprover('approved'), request(`a-${index}`), 90_000, run.signal)).toEqual({ decision: 'approved', by: 'auto' });
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('a timeout refuses, aborts the wait and leaves no listener behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const run = new AbortController();
    const person = new PendingApprovals();
    const decision = decideWithDeadline(person, request('late'), 90_000, run.signal);
    expect(person.pending().map((each) => each.approvalId)).toEqual(['late']);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(await decision).toEqual({ decision: 'refused', by: 'timeout' });
    expect(person.pending()).toEqual([]);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('a cancelled run refuses the approval waiting for a person, and one asked after the run was cancelled', async () => {
    const run = new AbortController();
    const person = new PendingApprovals();
    const waiting = decideWithDeadline(person, request('waiting'), 90_000, run.signal);
    run.abort();
    expect(await waiting).toEqual({ decision: 'refused', by: 'cancel' });
    expect(person.pending()).toEqual([]);
    expect(await decideWithDeadline(person, request('after'), 90_000, run.signal)).toEqual({ decision: 'refused', by: 'cancel' });
    expect(person.pending()).toEqual([]);
  });

  it("a person's answer decides", async () => {
    const run = new AbortController();
    const person = new PendingApprovals();
    const decision = decideWithDeadline(person, request('asked'), 90_000, run.signal);
    expect(person.answer('asked', false)).toBe(true);
    expect(await decision).toEqual({ decision: 'refused', by: 'person' });
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
