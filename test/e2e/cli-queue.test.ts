import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig, RunEvent } from '@holdfast/core/contract';
import { main } from 'holdfast';
import { planRounds } from '@holdfast/lab/experiment';
import { redisOptions, roundJobId, roundQueueName } from '@holdfast/lab/scale';
import { startTestRedis } from '@holdfast/lab/test-support';
import type { TestRedis } from '@holdfast/lab/test-support';
import { readRunFile } from '@holdfast/lab/store';
import { memoryIo } from '@holdfast/core/test-support';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'packages/cli/bin/holdfast.js');
const REPLIES = join(ROOT, 'runs/demo/replies.json');
// 3 targets × 2 tasks × 2 repetitions = 12 rounds.
const SWEEP = ['--replies', REPLIES, '--tasks', 'skip-flaky-ci,staging-analytics-key', '--reps', '2'];
const ROUNDS = 12;

let redis: TestRedis;
let dir: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  redis = await startTestRedis();
  dir = mkdtempSync(join(tmpdir(), 'holdfast-cli-queue-'));
});

afterEach(async () => {
  await Promise.all([...children].map((child) => stop(child, 'SIGKILL')));
});

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Started {
  readonly child: ChildProcess;
  /** Resolves when a line of stderr matches. */
  line(pattern: RegExp): Promise<string>;
  stderr(): string;
}

function holdfast(args: readonly string[], stdin: 'ignore' | 'pipe' = 'ignore'): Started {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let text = '';
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    text += String(chunk);
    for (const entry of [...waiting]) {
      const found = text.split('\n').find((line) => entry.pattern.test(line));
      if (found !== undefined) {
        waiting.splice(waiting.indexOf(entry), 1);
        entry.resolve(found);
      }
    }
  });
  child.stdout!.resume();
  return {
    child,
    stderr: () => text,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const found = text.split('\n').find((line) => pattern.test(line));
        if (found !== undefined) return resolve(found);
        waiting.push({ pattern, resolve });
        child.once('exit', (code) => reject(new Error(`holdfast ${args[0]} exited (${String(code)}) before printing ${String(pattern)}:\n${text}`)));
      }),
  };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

async function exited(started: Started): Promise<number | null> {
  const child = started.child;
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

async function startWorker(id: string, extra: readonly string[] = []): Promise<Started> {
  const worker = holdfast(['worker', '--queue', redis.url, '--replies', REPLIES, '--id', id, '--stall-timeout-ms', '1000', ...extra]);
  await worker.line(new RegExp(`^worker ${id} ready`));
  return worker;
}

/** Waits (polling the file) until an event the coordinator wrote matches: a readiness marker, not a sleep. */
async function eventInFile(path: string, matches: (event: RunEvent) => boolean): Promise<RunEvent> {
  for (;;) {
    const found = (await readRunFile(path).catch(() => ({ events: [] as RunEvent[] }))).events.find(matches);
    if (found !== undefined) return found;
    await delay(25);
  }
}

function armsPerRound(events: readonly RunEvent[]): Record<string, number> {
  const count: Record<string, number> = {};
  for (const event of events) if (event.type === 'arm-end') count[event.roundId] = (count[event.roundId] ?? 0) + 1;
  return count;
}

function verdicts(events: readonly RunEvent[]): Record<string, string> {
  const byArm: Record<string, string> = {};
  for (const event of events) if (event.type === 'arm-end') byArm[`${event.roundId}/${event.result.arm}`] = event.result.verdict;
  return byArm;
}

const everyRoundOnce = () => Array.from({ length: ROUNDS }, () => 2);

/**
 * Each round's events in file order, as a reader compares them: the queue's own fields (worker,
 * attempt), times, sequence numbers and approval ids left out. Sorted by round, since rounds interleave.
 */
function roundEvents(events: readonly RunEvent[]): [string, string[]][] {
  const byRound = new Map<string, string[]>();
  for (const event of events) {
    if (!('roundId' in event)) continue;
    const label =
      event.type === 'arm-end'
        ? `arm-end ${event.result.arm} ${event.result.verdict}`
        : event.type === 'approval-request'
          ? `approval-request ${event.arm} ${event.message}`
          : event.type === 'approval-end'
            ? `approval-end ${event.decision} by ${event.by}`
            : event.type;
    byRound.set(event.roundId, [...(byRound.get(event.roundId) ?? []), label]);
  }
  return [...byRound].sort(([left], [right]) => left.localeCompare(right));
}

/** The run id and config the coordinator wrote first: a readiness marker that it has started. */
async function runStart(path: string): Promise<{ runId: string; config: RunConfig }> {
  const start = await eventInFile(path, (event) => event.type === 'run-start');
  if (start.type !== 'run-start') throw new Error('not a run-start');
  return { runId: start.runId, config: start.config };
}

/** Calls `check` with each round's queue and job id until it holds for every round of the run (polling Redis). */
async function everyRound(runId: string, config: RunConfig, check: (queue: Queue, jobId: string) => Promise<boolean>): Promise<void> {
  const connection = redisOptions(redis.connection);
  const queues = new Map(config.targets.map((target) => [target, new Queue(roundQueueName(target, false), { connection })]));
  try {
    for (const round of planRounds(config)) {
      while (!(await check(queues.get(round.target)!, roundJobId(runId, round.roundId)))) await delay(25);
    }
  } finally {
    await Promise.all([...queues.values()].map((queue) => queue.close()));
  }
}
const inState = (state: string) => async (queue: Queue, jobId: string) => (await queue.getJobState(jobId)) === state;

describe('holdfast run --queue with holdfast worker processes', () => {
  it('a coordinator and three workers judge the sweep exactly as the in-process run', async () => {
    const local = join(dir, 'local.jsonl');
    expect(await main(['run', ...SWEEP, '--out', local], memoryIo({ cwd: dir }))).toBe(0);
    const workers = await Promise.all(['w1', 'w2', 'w3'].map((id) => startWorker(id)));
    const out = join(dir, 'queued.jsonl');
    const coordinator = holdfast(['run', ...SWEEP, '--queue', redis.url, '--out', out]);
    expect(await exited(coordinator)).toBe(0);
    const events = (await readRunFile(out)).events;
    expect(verdicts(events)).toEqual(verdicts((await readRunFile(local)).events));
    expect(Object.values(armsPerRound(events))).toEqual(everyRoundOnce());
    expect(coordinator.stderr()).toMatch(/Worker w1 on .*targets demo-careful, demo-hasty, demo-local-small/);
    expect(coordinator.stderr()).toMatch(/Rounds per worker: .*w\d \d+/);
    for (const worker of workers) expect(await stop(worker.child, 'SIGTERM')).toBe(0);
  });

  it('a worker killed with SIGKILL mid-round loses and doubles nothing: its round comes back and finishes elsewhere', async () => {
    // A worker whose replies never come: every round it takes is mid-flight when it is killed.
    const stuck = await startWorker('stuck', ['--reply-delay-ms', '600000']);
    const out = join(dir, 'killed.jsonl');
    const coordinator = holdfast(['run', ...SWEEP, '--queue', redis.url, '--out', out]);
    const taken = await eventInFile(out, (event) => event.type === 'round-start' && event.worker === 'stuck');
    await stop(stuck.child, 'SIGKILL');
    await Promise.all(['w4', 'w5', 'w6'].map((id) => startWorker(id)));
    expect(await exited(coordinator)).toBe(0);
    const events = (await readRunFile(out)).events;
    expect(Object.values(armsPerRound(events))).toEqual(everyRoundOnce());
    const tries = events.filter((event) => event.type === 'round-start' && event.roundId === (taken.type === 'round-start' ? taken.roundId : ''));
    expect(tries.map((event) => event.type === 'round-start' && event.worker)).toContain('stuck');
    const retry = tries.find((event) => event.type === 'round-start' && event.worker !== 'stuck');
    // Attempt 2 here; higher only if the retry itself stalled on this loaded box, which is no loss either.
    expect(retry?.type === 'round-start' ? retry.attempt : 0).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });

  it('a coordinator killed with SIGKILL and resumed after the workers played on writes every round as the in-process run does, each event once', async () => {
    const local = join(dir, 'local-for-resume.jsonl');
    expect(await main(['run', ...SWEEP, '--out', local], memoryIo({ cwd: dir }))).toBe(0);
    // A long stall timeout: on a loaded box a slow lock renewal must not retry a round (a retry shows, by design).
    // Each worker takes one round per target queue: nine of the twelve rounds start at once, the last three
    // only after a round ends (two replies of 400 ms), by which time the coordinator is long gone.
    await Promise.all(['w7', 'w8', 'w9'].map((id) => startWorker(id, ['--reply-delay-ms', '400', '--stall-timeout-ms', '30000'])));
    const out = join(dir, 'resumed.jsonl');
    const first = holdfast(['run', ...SWEEP, '--queue', redis.url, '--out', out]);
    await eventInFile(out, (event) => event.type === 'round-start');
    await stop(first.child, 'SIGKILL');
    const before = (await readRunFile(out)).events;
    const { runId, config } = await runStart(out);
    await everyRound(runId, config, inState('completed'));
    // Rounds the workers started and finished while no coordinator listened: their starts are nowhere yet.
    const startedBefore = new Set(before.flatMap((event) => (event.type === 'round-start' ? [event.roundId] : [])));
    expect(startedBefore.size).toBeLessThan(ROUNDS);

    const resumed = holdfast(['run', '--resume', out, '--queue', redis.url]);
    expect(await exited(resumed)).toBe(0);
    const events = (await readRunFile(out)).events;
    expect(roundEvents(events)).toEqual(roundEvents((await readRunFile(local)).events));
    const starts = events.filter((event) => event.type === 'round-start');
    expect(starts.every((event) => event.type === 'round-start' && /^w[789]$/.test(event.worker ?? '') && event.attempt === 1)).toBe(true);
    expect(events.filter((event) => event.type === 'run-start')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });
  it("a round retried while no coordinator ran shows every try once after --resume: the dead worker's and the one that finished", async () => {
    const out = join(dir, 'retried-unwatched.jsonl');
    const first = holdfast(['run', ...SWEEP, '--queue', redis.url, '--out', out]);
    const { runId, config } = await runStart(out);
    // Every round queued, none taken (no worker yet): then the coordinator dies.
    await everyRound(runId, config, inState('waiting'));
    await stop(first.child, 'SIGKILL');

    // A worker whose replies never come takes a round of each target and is killed mid-round, unwatched.
    const stuck = await startWorker('stuck', ['--reply-delay-ms', '600000']);
    const taken = await Promise.all(config.targets.map(async (target) => (await stuck.line(new RegExp(`^start ${target}/`))).split(' ')[1]!));
    const connection = redisOptions(redis.connection);
    const queues = new Map(config.targets.map((target) => [target, new Queue(roundQueueName(target, false), { connection })]));
    try {
      // Its try is recorded once its round-start is logged on the job.
      for (const roundId of taken) {
        const queue = queues.get(planRounds(config).find((round) => round.roundId === roundId)!.target)!;
        while (!(await queue.getJobLogs(roundJobId(runId, roundId))).logs.some((row) => row.includes('"worker":"stuck"'))) await delay(25);
      }
    } finally {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    }
    await stop(stuck.child, 'SIGKILL');
    await Promise.all(['w10', 'w11', 'w12'].map((id) => startWorker(id)));
    await everyRound(runId, config, inState('completed'));

    const resumed = holdfast(['run', '--resume', out, '--queue', redis.url]);
    expect(await exited(resumed)).toBe(0);
    const events = (await readRunFile(out)).events;
    expect(Object.values(armsPerRound(events))).toEqual(everyRoundOnce());
    const starts = events.flatMap((event) =>
      event.type === 'round-start' ? [{ roundId: event.roundId, attempt: event.attempt ?? 1, worker: event.worker }] : [],
    );
    // Each try once: no round starts twice with the same attempt.
    expect(new Set(starts.map((start) => `${start.roundId} ${start.attempt}`)).size).toBe(starts.length);
    for (const roundId of taken) {
      const tries = starts.filter((start) => start.roundId === roundId);
      expect(tries[0]).toEqual({ roundId, attempt: 1, worker: 'stuck' });
      // The try that finished came after; more than two only if a retry itself stalled on this loaded box.
      expect(tries.at(-1)).toMatchObject({ roundId, worker: expect.stringMatching(/^w1[012]$/) });
      expect(tries.at(-1)!.attempt).toBeGreaterThanOrEqual(2);
    }
    // Every other round started once, by a worker that finished it.
    for (const start of starts.filter((start) => !taken.includes(start.roundId))) expect(start.worker).toMatch(/^w1[012]$/);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });
  it('a late worker (frozen past the stall timeout, then thawed) finishes its try, but the round is written once, from the try that won', async () => {
    // Replies take 3 s: long enough that the frozen worker is mid-round, and thawed it finishes its reply.
    const late = await startWorker('late', ['--reply-delay-ms', '3000']);
    const out = join(dir, 'late.jsonl');
    const coordinator = holdfast(['run', ...SWEEP, '--queue', redis.url, '--out', out]);
    const taken = await eventInFile(out, (event) => event.type === 'round-start' && event.worker === 'late');
    const roundId = taken.type === 'round-start' ? taken.roundId : '';
    late.child.kill('SIGSTOP');
    // Its lock lapses; another worker takes the round again and finishes the run.
    await Promise.all(['w13', 'w14'].map((id) => startWorker(id)));
    // The round's result is in the file while the late worker is still frozen: the retry won.
    await eventInFile(out, (event) => event.type === 'arm-end' && event.roundId === roundId);
    late.child.kill('SIGCONT');
    expect(await exited(coordinator)).toBe(0);
    // Thawed, the late worker plays its try to the end (its result is refused by the queue: its lock is gone).
    await late.line(new RegExp(`^done ${roundId}`));
    const events = (await readRunFile(out)).events;
    expect(Object.values(armsPerRound(events))).toEqual(everyRoundOnce());
    const tries = events.filter((event) => event.type === 'round-start' && event.roundId === roundId);
    expect(tries[0]).toMatchObject({ worker: 'late', attempt: 1 });
    expect(tries.slice(1).every((event) => event.type === 'round-start' && event.worker !== 'late')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(await stop(late.child, 'SIGTERM')).toBe(0);
  });
  it("asks a worker process's commit requests at the coordinator's terminal, and the answer typed there reaches the worker", async () => {
    await startWorker('w15');
    const out = join(dir, 'asked.jsonl');
    const coordinator = holdfast(['run', ...SWEEP, '--queue', redis.url, '--out', out, '--approve', 'ask'], 'pipe');
    // A person at the terminal: every commit question is answered yes, once it is asked.
    let answered = 0;
    coordinator.child.stderr!.on('data', () => {
      const asked = coordinator.stderr().split('Approve this commit? [y/N]').length - 1;
      for (; answered < asked; answered += 1) coordinator.child.stdin!.write('y\n');
      // The run is over: the person's input ends (a process reading a pipe waits for its end before it exits).
      if (coordinator.stderr().includes('Rounds per worker:')) coordinator.child.stdin!.end();
    });
    expect(await exited(coordinator)).toBe(0);
    const events = (await readRunFile(out)).events;
    expect(Object.values(armsPerRound(events))).toEqual(everyRoundOnce());
    const requests = events.filter((event) => event.type === 'approval-request');
    const ends = events.filter((event) => event.type === 'approval-end');
    expect(requests.length).toBeGreaterThan(0);
    expect(answered).toBe(requests.length);
    expect(requests.every((event) => event.type === 'approval-request' && event.approvalId.startsWith('w15-'))).toBe(true);
    expect(ends.map((event) => event.type === 'approval-end' && `${event.approvalId} ${event.decision} by ${event.by}`).sort()).toEqual(
      requests.map((event) => event.type === 'approval-request' && `${event.approvalId} approved by person`).sort(),
    );
  });
});
