import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decideWithDeadline } from '../experiment/index.js';
import type { ApprovalRequest } from '../experiment/index.js';
import { openApprovalRelay, publishApproval } from './approval-relay.js';
import { redisOptions } from './queue-url.js';
import { startTestRedis } from './test-support/redis-server.js';
import type { TestRedis } from './test-support/redis-server.js';

let redis: TestRedis;
let publisher: Redis;

beforeAll(async () => {
  redis = await startTestRedis();
  publisher = new Redis(redisOptions(redis.connection));
});

afterAll(async () => {
  publisher.disconnect();
  await redis.stop();
});

function request(approvalId: string): ApprovalRequest {
  return { approvalId, roundId: 't/task/0', target: 't', task: 'task', rep: 0, message: 'Add health check', files: [], deadline: new Date(90_000) };
}

describe('approval relay', () => {
  it("hands the coordinator's answer to the worker waiting for that request, and to no other", async () => {
    const relay = await openApprovalRelay(redis.connection);
    try {
      const first = relay.decide(request('w1-1'), new AbortController().signal);
      const second = relay.decide(request('w1-2'), new AbortController().signal);
      expect(relay.waiting()).toEqual(['w1-1', 'w1-2']);
      await publishApproval(publisher, 'w1-2', { decision: 'approved', by: 'person' });
      expect(await second).toEqual({ decision: 'approved', by: 'person' });
      expect(relay.waiting()).toEqual(['w1-1']);
      await publishApproval(publisher, 'w1-1', { decision: 'refused', by: 'person' });
      expect(await first).toEqual({ decision: 'refused', by: 'person' });
    } finally {
      await relay.close();
    }
  });

  it('fails closed: no answer within the 90 s approval timeout is a refusal on the worker', async () => {
    const relay = await openApprovalRelay(redis.connection);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const decision = decideWithDeadline(relay, request('w1-3'), 90_000, new AbortController().signal);
      await vi.advanceTimersByTimeAsync(89_999);
      expect(relay.waiting()).toEqual(['w1-3']);
      await vi.advanceTimersByTimeAsync(1);
      expect(await decision).toEqual({ decision: 'refused', by: 'timeout' });
      expect(relay.waiting()).toEqual([]);
    } finally {
      vi.useRealTimers();
      await relay.close();
    }
  });
});
