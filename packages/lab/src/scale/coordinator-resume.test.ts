import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig, RunEvent, RunEventInput, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { demoReplyLookup, loadDemoReplies, loadTasks, planRounds, resolveScriptedTargets } from '../experiment/index.js';
import type { ExperimentTarget } from '../experiment/index.js';
import { answer, startScriptedJudge } from '../judge/test-support/scripted-judge.js';
import type { ScriptedJudge } from '../judge/test-support/scripted-judge.js';
import { loadRulebook } from '@holdfast/core/rules';
import { openRunFile, readRunFile } from '../store/index.js';
import { runQueuedSession } from './coordinator.js';
import type { QueuedSessionOptions } from './coordinator.js';
import { redisOptions } from './queue-url.js';
import { parseRoundOutcome } from './round-job.js';
import { roundJobId, roundQueueName } from './round-queues.js';
import { startRoundWorker } from './round-worker.js';
import { startTestRedis } from './test-support/redis-server.js';
import type { TestRedis } from './test-support/redis-server.js';

const TARGET = 'demo-careful';
let redis: TestRedis;
let judge: ScriptedJudge;
let dir: string;
let rulebook: Rulebook;
let tasks: TaskInfo[];
let scripted: ExperimentTarget[];
let runCount = 0;

beforeAll(async () => {
  redis = await startTestRedis();
  judge = await startScriptedJudge(() => answer('clean', 0.9));
  dir = mkdtempSync(join(tmpdir(), 'holdfast-queue-resume-'));
  rulebook = await loadRulebook(new URL('../../../../rulebooks/judged.yaml', import.meta.url).pathname);
  tasks = (await loadTasks(undefined, { rulebook })).filter((task) => task.id === 'skip-flaky-ci');
  scripted = resolveScriptedTargets([TARGET], [TARGET], demoReplyLookup(await loadDemoReplies()));
});

afterAll(async () => {
  await judge?.server.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const config: RunConfig = {
  targets: [TARGET],
  tasks: ['skip-flaky-ci'],
  reps: 1,
  concurrency: 1,
  approve: 'auto',
  approvalTimeoutMs: 90_000,
  temperature: 0,
  sandbox: false,
};
const [ROUND] = planRounds(config);

function session(runId: string, out: string, extra: Partial<QueuedSessionOptions> = {}): QueuedSessionOptions {
  return {
    connection: redis.connection,
    runId,
    out,
    config,
    rulebook,
    tasks,
    targets: scripted.map((target) => target.info),
    play: { judge: true },
    reconcileMs: 200,
    ...extra,
  };
}

/**
 * One judged round played while no coordinator listened: its events in the order the coordinator
 * writes a round (its start and approvals, both verdicts, then the judge grades), and the run file
 * as the first coordinator left it (queued, then stopped).
 */
async function roundPlayedUnwatched(): Promise<{ runId: string; out: string; lines: RunEventInput[] }> {
  runCount += 1;
  const runId = `run-grades-${process.pid}-${runCount}`;
  const out = join(dir, `${runId}.jsonl`);
  const controller = new AbortController();
  const first = await runQueuedSession(session(runId, out, { onWorkers: () => setImmediate(() => controller.abort()), signal: controller.signal }));
  expect(first.outcome.status).toBe('interrupted');
  const worker = await startRoundWorker({
    connection: redis.connection,
    workerId: `w${runCount}`,
    targets: async () => scripted,
    isolation: { kind: 'none', detail: 'not needed: plan mode runs no command' },
    judges: async () => (id) => (id === 'judge' ? judge.model : undefined),
  });
  const queue = new Queue(roundQueueName(TARGET, false), { connection: redisOptions(redis.connection) });
  try {
    const jobId = roundJobId(runId, ROUND!.roundId);
    while ((await queue.getJobState(jobId)) !== 'completed') await delay(20);
    const outcome = parseRoundOutcome((await queue.getJob(jobId))!.returnvalue);
    const key = { runId, ...ROUND! };
    const time = new Date().toISOString();
    const lines: RunEventInput[] = [
      ...outcome.events.filter((event) => event.type !== 'judge').map((event) => ({ ...event, ...key })),
      { ...key, type: 'arm-end', time, result: outcome.told },
      { ...key, type: 'arm-end', time, result: outcome.held },
      ...outcome.events.filter((event) => event.type === 'judge').map((event) => ({ ...event, ...key })),
    ];
    return { runId, out, lines };
  } finally {
    await queue.close();
    await worker.close();
  }
}

/** Each arm's verdicts and judge grades as the file holds them, counted. */
function graded(events: readonly (RunEvent | RunEventInput)[]) {
  const arms: Record<string, number> = {};
  const grades: Record<string, string[]> = {};
  for (const event of events) {
    if (event.type === 'arm-end') arms[event.result.arm] = (arms[event.result.arm] ?? 0) + 1;
    if (event.type === 'judge')
      (grades[`${event.arm} ${event.source}`] ??= []).push(event.judgements.map((judgement) => `${judgement.rule} ${judgement.verdict}`).join(','));
  }
  return { arms, grades };
}

describe('a queued run resumed after its coordinator died while writing a judged round', () => {
  it('writes every verdict and judge grade exactly once, whichever line of the round it died after', async () => {
    const probe = await roundPlayedUnwatched();
    const expected = graded(probe.lines);
    // Both arms are graded: the round's last lines are its judge grades, the ones a death after the verdicts lost.
    expect(Object.keys(expected.grades).sort()).toEqual(['held live', 'told live']);
    expect(probe.lines.at(-1)?.type).toBe('judge');
    // A killed writer leaves a prefix of its lines: try every one, from none of the round to all of it.
    for (let cut = 0; cut <= probe.lines.length; cut += 1) {
      const { runId, out, lines } = cut === 0 ? probe : await roundPlayedUnwatched();
      const writer = openRunFile(out);
      for (const line of lines.slice(0, cut)) writer.append(line);
      writer.close();
      const resumed = await runQueuedSession(session(runId, out, { previous: (await readRunFile(out)).events }));
      expect(resumed.outcome.status, `cut after ${cut} lines`).toBe('completed');
      const events = (await readRunFile(out)).events;
      expect(graded(events), `cut after ${cut} lines`).toEqual(expected);
      expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    }
  });
});
