import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOptions } from './queue-url.js';
import { startTestRedis } from './test-support/redis-server.js';
import type { TestRedis } from './test-support/redis-server.js';
import { HEARTBEAT_MS, WORKERS_KEY, advertiseWorker, liveWorkers, withdrawWorker, workerBeats } from './worker-registry.js';
import type { WorkerCapabilities } from './worker-registry.js';

let redis: TestRedis;
let client: Redis;

beforeAll(async () => {
  redis = await startTestRedis();
  client = new Redis(redisOptions(redis.connection));
});

afterAll(async () => {
  client.disconnect();
  await redis.stop();
});

function worker(id: string, seenAt: number): WorkerCapabilities {
  return {
    id,
    host: 'box',
    pid: 1,
    targets: ['a'],
    agents: ['cc: claude-code 2.1.197'],
    isolation: 'bubblewrap',
    unsafe: false,
    queues: ['rounds.a', 'rounds.a.isolated'],
    concurrency: 1,
    seenAt,
  };
}

describe('worker registry', () => {
  it('lists the workers heard from within three heartbeats, leaving out stale, withdrawn and unreadable entries', async () => {
    const now = 1_000_000;
    await advertiseWorker(client, worker('b', now - 3 * HEARTBEAT_MS));
    await advertiseWorker(client, worker('a', now));
    await advertiseWorker(client, worker('stale', now - 3 * HEARTBEAT_MS - 1));
    await advertiseWorker(client, worker('gone', now));
    await withdrawWorker(client, 'gone');
    await client.hset(WORKERS_KEY, 'garbled', '{not json');
    expect((await liveWorkers(client, now)).map((entry) => entry.id)).toEqual(['a', 'b']);
    expect((await liveWorkers(client, now))[0]).toEqual(worker('a', now));
  });

  it("tells a run's coordinator which of its workers still beat and which went stale, forgetting long-silent ones", async () => {
    const now = 2_000_000;
    await client.del(WORKERS_KEY);
    await advertiseWorker(client, worker('beating', now - 1));
    await advertiseWorker(client, worker('silent', now - 3 * HEARTBEAT_MS - 1));
    await advertiseWorker(client, worker('long-dead', now - 60_001));
    await advertiseWorker(client, { ...worker('elsewhere', now), queues: ['rounds.b'] });
    expect(await workerBeats(client, now, new Set(['rounds.a']), 60_000)).toEqual([
      { id: 'beating', host: 'box', seenAt: now - 1, stale: false },
      { id: 'silent', host: 'box', seenAt: now - 3 * HEARTBEAT_MS - 1, stale: true },
    ]);
  });
});
