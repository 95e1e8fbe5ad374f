import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig, RunEvent, Rulebook, TaskInfo, Timers } from '@holdfast/core/contract';
import { PendingApprovals, demoReplyLookup, loadDemoReplies, loadTasks, planRounds, resolveScriptedTargets, runSession } from '../experiment/index.js';
import type { Approver, ExperimentTarget } from '../experiment/index.js';
import { ProviderError, createOpenAiCompatibleAdapter } from '../models/index.js';
import { chatCompletion, startFakeOpenAi } from '../models/test-support/fake-openai-server.js';
import { testRuntime } from '../models/test-support/test-runtime.js';
import { loadRulebook } from '@holdfast/core/rules';
import { openRunFile, readRunFile } from '../store/index.js';
import { runQueuedSession } from './coordinator.js';
import { redisOptions } from './queue-url.js';
import { withReplyDelay } from './reply-delay.js';
import { parseRoundOutcome } from './round-job.js';
import { roundJobId, roundQueueName } from './round-queues.js';
import { startRoundWorker } from './round-worker.js';
import type { RoundWorker, RoundWorkerOptions } from './round-worker.js';
import { startTestRedis } from './test-support/redis-server.js';
import type { TestRedis } from './test-support/redis-server.js';

const TARGETS = ['demo-careful', 'demo-hasty', 'demo-local-small'];
let redis: TestRedis;
let dir: string;
let rulebook: Rulebook;
let tasks: TaskInfo[];
let scripted: ExperimentTarget[];
let runCount = 0;

beforeAll(async () => {
  redis = await startTestRedis();
  dir = mkdtempSync(join(tmpdir(), 'holdfast-queue-'));
  rulebook = await loadRulebook();
  tasks = (await loadTasks(undefined, { rulebook })).filter((task) => ['skip-flaky-ci', 'staging-analytics-key'].includes(task.id));
  const replies = await loadDemoReplies();
  scripted = resolveScriptedTargets(TARGETS, TARGETS, demoReplyLookup(replies));
});

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function config(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    targets: TARGETS,
    tasks: tasks.map((task) => task.id),
    reps: 2,
    concurrency: 3,
    approve: 'auto',
    approvalTimeoutMs: 90_000,
    temperature: 0,
    sandbox: false,
    ...overrides,
  };
}

function nextRunId(): string {
  runCount += 1;
  return `run-test-${process.pid}-${runCount}`;
}

async function startWorkers(count: number, options: Partial<RoundWorkerOptions> = {}): Promise<RoundWorker[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      startRoundWorker({
        connection: redis.connection,
        workerId: `w${index + 1}`,
        targets: async () => scripted,
        isolation: { kind: 'none', detail: 'not needed: plan mode runs no command' },
        ...options,
      }),
    ),
  );
}

/** Verdicts by round and arm, and how many arm results each round has in the file. */
function verdicts(events: readonly RunEvent[]): { byArm: Record<string, string>; perRound: Record<string, number> } {
  const byArm: Record<string, string> = {};
  const perRound: Record<string, number> = {};
  for (const event of events) {
    if (event.type !== 'arm-end') continue;
    byArm[`${event.roundId}/${event.result.arm}`] = event.result.verdict;
    perRound[event.roundId] = (perRound[event.roundId] ?? 0) + 1;
  }
  return { byArm, perRound };
}

/** Approves every commit as a person would, and remembers what it was asked. */
function approvingPerson(): Approver & { asked: string[] } {
  const asked: string[] = [];
  return { asked, decide: async (request) => (asked.push(request.roundId), { decision: 'approved', by: 'person' }) };
}

/**
 * The worker's approval deadline on a clock the test moves. Not vitest's fake timers: those would
 * also stop BullMQ's and ioredis's own timers in this process, which talk to a real Redis.
 */
function manualTimers(): Timers & { advance(ms: number): void; due(): number[] } {
  let now = 0;
  let next = 0;
  const waiting = new Map<number, { at: number; callback: () => void }>();
  return {
    setTimeout: (callback, ms) => (waiting.set((next += 1), { at: now + ms, callback }), next),
    clearTimeout: (handle) => void waiting.delete(handle as number),
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...waiting]) if (timer.at <= now && waiting.delete(id)) timer.callback();
    },
    due: () => [...waiting.values()].map((timer) => timer.at - now),
  };
}

/** Removes a queue's leftover jobs, so no later test's workers play another run's rounds. */
async function emptyQueue(name: string): Promise<void> {
  const queue = new Queue(name, { connection: redisOptions(redis.connection) });
  await queue.obliterate({ force: true });
  await queue.close();
}

describe('a queued run', () => {
  it('with three workers judges every round exactly as the in-process run, asking the same person about the same commits', async () => {
    const local = approvingPerson();
    const localRun = await runSession({
      runId: 'local',
      out: join(dir, 'local.jsonl'),
      config: config({ approve: 'ask' }),
      rulebook,
      tasks,
      targets: scripted,
      approver: local,
    });
    expect(localRun.outcome.status).toBe('completed');

    const workers = await startWorkers(3);
    const person = approvingPerson();
    try {
      const queued = await runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'queued.jsonl'),
        config: config({ approve: 'ask' }),
        rulebook,
        tasks,
        targets: scripted.map((target) => target.info),
        approver: person,
        reconcileMs: 200,
      });
      expect(queued.outcome).toMatchObject({ status: 'completed', roundsRun: 12 });
      const localEvents = (await readRunFile(localRun.path)).events;
      const queuedEvents = (await readRunFile(queued.path)).events;
      expect(verdicts(queuedEvents).byArm).toEqual(verdicts(localEvents).byArm);
      expect(Object.values(verdicts(queuedEvents).perRound)).toEqual(Array.from({ length: 12 }, () => 2));
      expect(person.asked.sort()).toEqual(local.asked.sort());
      const ends = queuedEvents.filter((event) => event.type === 'approval-end');
      expect(ends.length).toBe(local.asked.length);
      expect(ends.every((event) => event.type === 'approval-end' && event.by === 'person' && event.decision === 'approved')).toBe(true);
      const starts = queuedEvents.filter((event) => event.type === 'round-start');
      expect(starts.every((event) => event.type === 'round-start' && /^w[123]$/.test(event.worker ?? '') && event.attempt === 1)).toBe(true);
      expect([...queued.byWorker.values()].reduce((sum, count) => sum + count, 0)).toBe(12);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });

  it('keeps one round of a target in flight across all workers when the target concurrency is 1', async () => {
    const active = new Map<string, number>();
    const most = new Map<string, number>();
    const track: RoundWorkerOptions['onRound'] = ({ phase, roundId }) => {
      const target = roundId.split('/')[0]!;
      const now = (active.get(target) ?? 0) + (phase === 'start' ? 1 : -1);
      active.set(target, now);
      most.set(target, Math.max(most.get(target) ?? 0, now));
    };
    // Each reply takes a moment, so rounds of one target would overlap on three workers of two slots each.
    const slow = scripted.map((target) => withReplyDelay(target, 5));
    const workers = await startWorkers(3, { concurrency: 2, onRound: track, targets: async () => slow });
    try {
      const queued = await runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'limited.jsonl'),
        config: config(),
        rulebook,
        tasks,
        targets: scripted.map((target) => target.info),
        limits: { concurrency: 1 },
        reconcileMs: 200,
      });
      expect(queued.outcome.status).toBe('completed');
      expect([...most.values()]).toEqual([1, 1, 1]);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      const connection = redisOptions(redis.connection);
      for (const target of TARGETS) {
        const queue = new Queue(roundQueueName(target, false), { connection });
        await queue.removeGlobalConcurrency();
        await queue.close();
      }
    }
  });

  it('starts no more rounds of a target than its rate allows, however many workers wait', async () => {
    const workers = await startWorkers(3, { concurrency: 2 });
    const controller = new AbortController();
    const queue = new Queue(roundQueueName('demo-hasty', false), { connection: redisOptions(redis.connection) });
    let accepted = 0;
    let reachedLimit: () => void = () => undefined;
    const limitReached = new Promise<void>((resolve) => (reachedLimit = resolve));
    try {
      const running = runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'rate.jsonl'),
        config: config({ targets: ['demo-hasty'] }),
        rulebook,
        tasks,
        targets: scripted.filter((target) => target.info.id === 'demo-hasty').map((target) => target.info),
        // Two rounds per ten minutes: the other two of the four must wait however idle the six worker slots are.
        limits: { rate: { max: 2, durationMs: 600_000 } },
        reconcileMs: 200,
        signal: controller.signal,
        onRoundEnd: () => {
          accepted += 1;
          if (accepted === 2) reachedLimit();
        },
      });
      await limitReached;
      const counts = await queue.getJobCounts('active', 'wait', 'completed');
      expect(counts).toMatchObject({ active: 0, wait: 2 });
      expect(await queue.getRateLimitTtl(2)).toBeGreaterThan(0);
      controller.abort();
      expect((await running).outcome.status).toBe('interrupted');
      expect(accepted).toBe(2);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      await queue.removeGlobalRateLimit();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it("pauses a target's queue for every worker when one of them is told to wait (Retry-After)", async () => {
    let pause: ((targetId: string, ms: number) => void) | undefined;
    const [worker] = await startWorkers(1, {
      targets: async (pauseTarget) => {
        pause = pauseTarget;
        return scripted;
      },
    });
    const queue = new Queue(roundQueueName('demo-hasty', false), { connection: redisOptions(redis.connection) });
    const other = new Queue(roundQueueName('demo-careful', false), { connection: redisOptions(redis.connection) });
    // Above the workers' never-binding limiter: only a pause fills the limiter past it.
    const paused = (target: Queue) => target.getRateLimitTtl(Number.MAX_SAFE_INTEGER - 1);
    try {
      pause!('demo-hasty', 60_000);
      let ttl = 0;
      // The pause is written to Redis asynchronously; wait for it to land, bounded by the test timeout.
      while (ttl === 0) {
        ttl = await paused(queue);
        if (ttl === 0) await delay(10);
      }
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await paused(other)).toBe(0);
    } finally {
      await queue.removeRateLimitKey();
      await Promise.all([queue.close(), other.close()]);
      await worker!.close();
    }
  });

  it("never lets a worker's key reach the coordinator's run file, even inside an error message", async () => {
    const key = 'sk-worker-only-0123456789abcdef';
    const leaky = scripted.map((target) => ({
      ...target,
      model: { generate: () => Promise.reject(new ProviderError('E_PROVIDER_HTTP', `401: Incorrect API key provided: ${key}`, { retryable: false })) },
    }));
    const workers = await startWorkers(1, { targets: async () => leaky, secrets: [key] });
    try {
      const queued = await runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'keys.jsonl'),
        config: config({ targets: ['demo-careful'], reps: 1 }),
        rulebook,
        tasks,
        targets: [scripted[0]!.info],
        reconcileMs: 200,
      });
      expect(queued.outcome.status).toBe('completed');
      const text = readFileSync(queued.path, 'utf8');
      expect(text).toContain('Incorrect API key provided: [redacted]');
      expect(text).not.toContain(key);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });

  it('resumed after its coordinator stopped, collects the results the workers finished meanwhile, each arm once', async () => {
    const runId = nextRunId();
    const out = join(dir, 'resumed.jsonl');
    const controller = new AbortController();
    const first = await runQueuedSession({
      connection: redis.connection,
      runId,
      out,
      config: config(),
      rulebook,
      tasks,
      targets: scripted.map((target) => target.info),
      reconcileMs: 200,
      // No worker yet: stop the coordinator as soon as every round is queued.
      onWorkers: () => setImmediate(() => controller.abort()),
      signal: controller.signal,
    });
    expect(first.outcome.status).toBe('interrupted');
    const workers = await startWorkers(3);
    try {
      const connection = redisOptions(redis.connection);
      const queues = TARGETS.map((target) => new Queue(roundQueueName(target, false), { connection }));
      let completed = 0;
      while (completed < 12) {
        completed = 0;
        for (const queue of queues) completed += (await queue.getJobCounts('completed')).completed ?? 0;
        if (completed < 12) await delay(20);
      }
      // As a coordinator killed between a round's two lines leaves it: the told arm written, the held arm not.
      const [round] = planRounds(config());
      const job = await queues[TARGETS.indexOf(round!.target)]!.getJob(roundJobId(runId, round!.roundId));
      const writer = openRunFile(out);
      writer.append({ runId, ...round!, type: 'arm-end', result: parseRoundOutcome(job!.returnvalue).told });
      writer.close();
      await Promise.all(queues.map((queue) => queue.close()));
      const previous = (await readRunFile(out)).events;
      const resumed = await runQueuedSession({
        connection: redis.connection,
        runId,
        out,
        config: config(),
        rulebook,
        tasks,
        targets: scripted.map((target) => target.info),
        previous,
        reconcileMs: 200,
      });
      expect(resumed.outcome).toMatchObject({ status: 'completed', roundsRun: 12 });
      const events = (await readRunFile(out)).events;
      expect(Object.values(verdicts(events).perRound)).toEqual(Array.from({ length: 12 }, () => 2));
      expect(events.filter((event) => event.type === 'run-start')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });
  it("shows a worker's commit request in the coordinator's approvals; unanswered, the worker refuses it at the 90 s deadline and the question is withdrawn", async () => {
    // A round whose held arm asks for a commit, found by the in-process run.
    const local = approvingPerson();
    await runSession({
      runId: 'local-asks',
      out: join(dir, 'local-asks.jsonl'),
      config: config({ approve: 'ask', reps: 1 }),
      rulebook,
      tasks,
      targets: scripted,
      approver: local,
    });
    const asking = planRounds(config({ reps: 1 })).find((round) => local.asked.includes(round.roundId))!;
    const timers = manualTimers();
    const [worker] = await startWorkers(1, { timers });
    // The web app's approver (the terminal's answers through the same interface): requests wait here for a person.
    const approvals = new PendingApprovals();
    const withdrawn: string[] = [];
    const person = {
      decide: (request: Parameters<PendingApprovals['decide']>[0], signal: AbortSignal) => {
        signal.addEventListener('abort', () => withdrawn.push(request.approvalId), { once: true });
        return approvals.decide(request, signal);
      },
    };
    let asked: () => void = () => undefined;
    const requestShown = new Promise<void>((resolve) => (asked = resolve));
    try {
      const running = runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'unanswered.jsonl'),
        config: config({ approve: 'http', reps: 1, targets: [asking.target], tasks: [asking.task] }),
        rulebook,
        tasks,
        targets: scripted.filter((target) => target.info.id === asking.target).map((target) => target.info),
        approver: person,
        reconcileMs: 200,
        onEvent: (event) => {
          if (event.type === 'approval-request') setImmediate(asked);
        },
      });
      await requestShown;
      while (approvals.pending().length === 0) await delay(10);
      const [request] = approvals.pending();
      expect(request).toMatchObject({ roundId: asking.roundId, approvalId: expect.stringMatching(/^w1-/) });
      // The deadline is the worker's, at the run's 90 s (set just after it sent the request): one second short of it, nothing is decided.
      while (timers.due().length === 0) await delay(10);
      expect(timers.due()).toEqual([90_000]);
      timers.advance(89_999);
      expect(approvals.pending()).toHaveLength(1);
      timers.advance(1);
      const queued = await running;
      expect(queued.outcome.status).toBe('completed');
      const events = (await readRunFile(queued.path)).events;
      expect(events.filter((event) => event.type === 'approval-end')).toEqual([
        expect.objectContaining({ approvalId: request!.approvalId, decision: 'refused', by: 'timeout' }),
      ]);
      const held = events.find((event) => event.type === 'arm-end' && event.result.arm === 'held');
      expect(held?.type === 'arm-end' && held.result.verdict).toBe('refused');
      // The person is no longer asked about a commit the worker already refused.
      expect(withdrawn).toEqual([request!.approvalId]);
      expect(approvals.pending()).toEqual([]);
    } finally {
      // A failed expectation must not leave the worker's round waiting on a clock nobody moves.
      timers.advance(90_000);
      await worker!.close();
    }
  });

  it('gives a round only to a worker that can play it: its target, and isolation for rounds that run commands', async () => {
    // This worker plays one of two targets and has no isolation.
    const careful = scripted.filter((target) => target.info.id === 'demo-careful');
    const [worker] = await startWorkers(1, { targets: async () => careful });
    expect(worker!.queues).toEqual([roundQueueName('demo-careful', false)]);
    const controller = new AbortController();
    const unserved: string[][] = [];
    const runId = nextRunId();
    let accepted = 0;
    try {
      const queued = await runQueuedSession({
        connection: redis.connection,
        runId,
        out: join(dir, 'routed.jsonl'),
        config: config({ targets: ['demo-careful', 'demo-hasty'] }),
        rulebook,
        tasks,
        targets: scripted.filter((target) => target.info.id !== 'demo-local-small').map((target) => target.info),
        reconcileMs: 200,
        signal: controller.signal,
        onWorkers: (_workers, missing) => unserved.push([...missing]),
        // The four rounds of the target it plays: then stop, the other target's rounds still waiting.
        onRoundEnd: () => (accepted += 1) === 4 && controller.abort(),
      });
      expect(queued.outcome.status).toBe('interrupted');
      expect(unserved).toEqual([['demo-hasty']]);
      const events = (await readRunFile(queued.path)).events;
      const starts = events.filter((event) => event.type === 'round-start');
      expect(starts.map((event) => event.type === 'round-start' && `${event.target} ${event.worker}`)).toEqual(
        Array.from({ length: 4 }, () => 'demo-careful w1'),
      );
      const hasty = new Queue(roundQueueName('demo-hasty', false), { connection: redisOptions(redis.connection) });
      const waiting = await Promise.all(planRounds(config({ targets: ['demo-hasty'] })).map((round) => hasty.getJobState(roundJobId(runId, round.roundId))));
      await hasty.close();
      expect(waiting).toEqual(['waiting', 'waiting', 'waiting', 'waiting']);

      // A sandboxed round runs commands: it goes to the isolated queue, which this worker does not take.
      const sandboxed = new AbortController();
      const isolatedUnserved: string[][] = [];
      const boxed = await runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'routed-sandboxed.jsonl'),
        config: config({ targets: ['demo-careful'], sandbox: true }),
        rulebook,
        tasks,
        targets: careful.map((target) => target.info),
        reconcileMs: 200,
        signal: sandboxed.signal,
        onWorkers: (_workers, missing) => (isolatedUnserved.push([...missing]), setImmediate(() => sandboxed.abort())),
      });
      expect(boxed.outcome.status).toBe('interrupted');
      expect(isolatedUnserved).toEqual([['demo-careful']]);
      expect((await readRunFile(boxed.path)).events.some((event) => event.type === 'round-start')).toBe(false);
    } finally {
      await worker!.close();
      await emptyQueue(roundQueueName('demo-hasty', false));
      await emptyQueue(roundQueueName('demo-careful', true));
    }
  });
  it("honours a provider's Retry-After on every worker: one worker's 429 pauses the target's rounds for all of them", async () => {
    // A real OpenAI-compatible server on 127.0.0.1: the first call is told to wait two minutes, every other one answers.
    const server = await startFakeOpenAi({
      script: (_request, index) =>
        index === 0 ? { status: 429, body: '{"error":"slow down"}', headers: { 'retry-after': '120' } } : chatCompletion('{"actions": []}'),
    });
    const info = { id: 'api', provider: 'openai-compatible', model: 'm', baseUrl: server.baseUrl } as const;
    // Each worker's own adapter, wired as `holdfast worker` wires configured targets (its runtime's onRetryAfter pauses the target).
    const apiTarget = async (pauseTarget: (targetId: string, ms: number) => void): Promise<ExperimentTarget[]> => [
      {
        info,
        model: createOpenAiCompatibleAdapter({
          id: 'api',
          model: 'm',
          baseUrl: server.baseUrl,
          runtime: { ...testRuntime(), onRetryAfter: (ms) => pauseTarget('api', ms) },
          retry: { maxAttempts: 2 },
        }),
      },
    ];
    const workers = await startWorkers(2, { targets: apiTarget });
    const queue = new Queue(roundQueueName('api', false), { connection: redisOptions(redis.connection) });
    const controller = new AbortController();
    let accepted = 0;
    try {
      const running = runQueuedSession({
        connection: redis.connection,
        runId: nextRunId(),
        out: join(dir, 'retry-after.jsonl'),
        config: config({ targets: ['api'] }),
        rulebook,
        tasks,
        targets: [info],
        reconcileMs: 200,
        signal: controller.signal,
        onRoundEnd: () => (accepted += 1),
      });
      // Once the rounds already in flight have ended, the rest wait, though two workers are idle: the target is paused for both.
      let counts: Record<string, number> = {};
      do {
        await delay(20);
        counts = await queue.getJobCounts('active', 'wait', 'completed');
      } while (!(counts.active === 0 && (counts.completed ?? 0) >= 1 && accepted === counts.completed));
      expect(counts.wait).toBeGreaterThanOrEqual(1);
      expect(counts.completed! + counts.wait!).toBe(4);
      const ttl = await queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER - 1);
      // Honoured for as long as asked (capped at the adapter's 60 s), not for one machine's retry alone.
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(server.requests.length).toBe(2 * counts.completed! + 1);
      // The wait over (cut short here), the other rounds are played and the run completes. The paused
      // workers sleep out the wait they were given; a worker that joins now takes the rest.
      await queue.removeRateLimitKey();
      workers.push(...(await startWorkers(1, { workerId: 'w3', targets: apiTarget })));
      expect((await running).outcome).toMatchObject({ status: 'completed', roundsRun: 4 });
    } finally {
      controller.abort();
      await queue.removeRateLimitKey();
      await Promise.all(workers.map((worker) => worker.close()));
      await queue.obliterate({ force: true });
      await queue.close();
      await server.close();
    }
  });
});
