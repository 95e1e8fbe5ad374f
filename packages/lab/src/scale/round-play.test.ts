import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArmResult, RunConfig, RunEvent, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { runSession } from '../experiment/index.js';
import type { ExperimentTarget } from '../experiment/index.js';
import { answer, startScriptedJudge } from '../judge/test-support/scripted-judge.js';
import type { ScriptedJudge } from '../judge/test-support/scripted-judge.js';
import { loadRulebook } from '@holdfast/core/rules';
import { detectIsolation, sandboxLander } from '../sandbox/index.js';
import type { Isolation } from '../sandbox/index.js';
import { FIXTURE_TASK, requireIsolation, withAllowlist } from '../sandbox/test-support.js';
import { readRunFile } from '../store/index.js';
import { runQueuedSession } from './coordinator.js';
import type { QueuedSessionOptions } from './coordinator.js';
import { startRoundWorker } from './round-worker.js';
import type { RoundWorkerOptions } from './round-worker.js';
import { startTestRedis } from './test-support/redis-server.js';
import type { TestRedis } from './test-support/redis-server.js';

/** A task whose test command needs a package from node_modules: it passes only where --node-modules is linked in. */
const TASK: TaskInfo = {
  ...FIXTURE_TASK,
  id: 'needs-modules',
  files: { ...FIXTURE_TASK.files, 'scripts/test.mjs': "import pad from 'left-pad';\nprocess.stdout.write(`[${pad('x')}]`);\n" },
};
const REPLY = JSON.stringify({
  actions: [
    {
      type: 'write',
      path: 'src/features/total.ts',
      content: 'export const total = (items: number[]): number => items.reduce((sum, item) => sum + item, 0);\n',
    },
    { type: 'run', cmd: 'npm test' },
    { type: 'commit', message: 'Add total' },
  ],
});
const TARGET: ExperimentTarget = {
  info: { id: 'scripted', provider: 'replay' },
  model: { generate: async () => ({ text: REPLY, usage: {}, latencyMs: 1, attempts: 1 }) },
};

let redis: TestRedis;
let dir: string;
let isolation: Isolation;
let runCount = 0;

beforeAll(async () => {
  await requireIsolation();
  isolation = await detectIsolation();
  redis = await startTestRedis();
  dir = mkdtempSync(join(tmpdir(), 'holdfast-round-play-'));
});

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function config(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    targets: ['scripted'],
    tasks: [TASK.id],
    reps: 2,
    concurrency: 2,
    approve: 'auto',
    approvalTimeoutMs: 90_000,
    temperature: 0,
    sandbox: true,
    ...overrides,
  };
}

/** One worker plays the run on the queue; the file it ends with is read back. */
async function queuedRun(rulebook: Rulebook, session: Pick<QueuedSessionOptions, 'config' | 'play'>, worker: Partial<RoundWorkerOptions> = {}) {
  runCount += 1;
  const started = await startRoundWorker({ connection: redis.connection, workerId: `w${runCount}`, targets: async () => [TARGET], isolation, ...worker });
  try {
    const run = await runQueuedSession({
      connection: redis.connection,
      runId: `run-play-${process.pid}-${runCount}`,
      out: join(dir, `queued-${runCount}.jsonl`),
      rulebook,
      tasks: [TASK],
      targets: [TARGET.info],
      reconcileMs: 200,
      ...session,
    });
    return { outcome: run.outcome, events: (await readRunFile(run.path)).events };
  } finally {
    await started.close();
  }
}

async function localRun(name: string, rulebook: Rulebook, options: Omit<Parameters<typeof runSession>[0], 'runId' | 'out' | 'rulebook' | 'tasks' | 'targets'>) {
  const run = await runSession({ runId: name, out: join(dir, `${name}.jsonl`), rulebook, tasks: [TASK], targets: [TARGET], ...options });
  expect(run.outcome.status).toBe('completed');
  return (await readRunFile(run.path)).events;
}

function arms(events: readonly RunEvent[]): Map<string, ArmResult> {
  const byArm = new Map<string, ArmResult>();
  for (const event of events) if (event.type === 'arm-end') byArm.set(`${event.roundId}/${event.result.arm}`, event.result);
  return byArm;
}

/** What a round's arms landed, by round and arm, with the kept repository named relative to its --keep-sandboxes folder. */
function landed(events: readonly RunEvent[], keepDir: string) {
  return [...arms(events)]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([key, result]) => ({
      key,
      verdict: result.verdict,
      commands: result.sandbox?.commands.map((command) => `${command.cmd} → ${command.exitCode} ${command.output?.text ?? ''}`),
      changed: result.sandbox?.changedPaths,
      kept: result.sandbox?.keptAt === undefined ? undefined : relative(keepDir, result.sandbox.keptAt),
    }));
}

/** Event types of each round in file order, without the queue's own fields (worker, attempt) and times. */
function roundShapes(events: readonly RunEvent[]): Record<string, string[]> {
  const shapes: Record<string, string[]> = {};
  for (const event of events) {
    if (!('roundId' in event)) continue;
    const label =
      event.type === 'arm-end'
        ? `arm-end ${event.result.arm} ${event.result.verdict}`
        : event.type === 'judge'
          ? `judge ${event.arm} ${event.judgements.map((judgement) => `${judgement.rule} ${judgement.verdict}`).join(',')}`
          : event.type;
    (shapes[event.roundId] ??= []).push(label);
  }
  return shapes;
}

describe('a queued run plays its rounds with the run options, as the in-process run does', () => {
  it('--keep-sandboxes and --node-modules: each arm lands with the installed packages linked in and is kept under the same folder layout', async () => {
    const rulebook = withAllowlist(await loadRulebook(), ['^npm (?:run )?test$']);
    const installed = join(dir, 'installed', 'node_modules');
    mkdirSync(join(installed, 'left-pad'), { recursive: true });
    writeFileSync(join(installed, 'left-pad', 'package.json'), '{ "name": "left-pad", "main": "index.js" }\n');
    writeFileSync(join(installed, 'left-pad', 'index.js'), "module.exports = (text) => ' ' + text;\n");
    const localKeep = join(dir, 'kept-local');
    const queuedKeep = join(dir, 'kept-queued');

    const local = await localRun('local-sandbox', rulebook, {
      config: config(),
      openLander: sandboxLander({ keepDir: localKeep, isolation, nodeModules: () => installed }),
    });
    const queued = await queuedRun(rulebook, { config: config(), play: { judge: false, keepDir: queuedKeep, nodeModules: installed } });
    expect(queued.outcome.status).toBe('completed');

    const expected = landed(local, localKeep);
    expect(landed(queued.events, queuedKeep)).toEqual(expected);
    // The packages were really there: the test command printed what left-pad made of its input.
    expect(expected.find((arm) => arm.key.endsWith('/told'))?.commands).toEqual([expect.stringMatching(/^npm test → 0 [\s\S]*\[ x\]$/)]);
    // Each arm's repository is on disk where the run file says, as a repository with the arm's history.
    for (const arm of expected) {
      const log = execFileSync('git', ['log', '--format=%s'], {
        cwd: join(queuedKeep, arm.kept!),
        encoding: 'utf8',
        env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
      });
      expect(log.split('\n')[0]).toBe(arm.key.endsWith('/told') ? 'Add total' : `${TASK.id}: the task's repository state`);
    }
  });

  it('without --node-modules on the worker, the run fails naming the folder and what to do instead of judging without the packages', async () => {
    const rulebook = withAllowlist(await loadRulebook(), ['^npm (?:run )?test$']);
    const queued = await queuedRun(rulebook, { config: config({ reps: 1 }), play: { judge: false, nodeModules: join(dir, 'nowhere', 'node_modules') } });
    expect(queued.outcome.status).toBe('failed');
    expect(queued.outcome.reason).toMatch(/--node-modules .*nowhere\/node_modules does not exist on this machine; install it at the same path on every worker/);
  });

  describe('judge rules', () => {
    let judge: ScriptedJudge;
    beforeAll(async () => {
      judge = await startScriptedJudge(() => answer('clean', 0.9));
    });
    afterAll(async () => judge?.server.close());

    it('are graded after each arm on the worker with its own judges, and --no-judge grades none, each as the in-process run writes it', async () => {
      const rulebook = await loadRulebook(new URL('../../../../rulebooks/judged.yaml', import.meta.url).pathname);
      const judges = (id: string) => (id === 'judge' ? judge.model : undefined);
      const plan = config({ sandbox: false });

      const local = await localRun('local-judged', rulebook, { config: plan, judge: { judges } });
      const queued = await queuedRun(rulebook, { config: plan, play: { judge: true } }, { judges: async () => judges });
      expect(queued.outcome.status).toBe('completed');
      const shapes = roundShapes(local);
      expect(Object.values(shapes)[0]).toEqual(expect.arrayContaining([expect.stringMatching(/^judge told J1 \w+,J2/), expect.stringMatching(/^judge held/)]));
      expect(roundShapes(queued.events)).toEqual(shapes);

      const localPlain = await localRun('local-no-judge', rulebook, { config: plan });
      const queuedPlain = await queuedRun(rulebook, { config: plan, play: { judge: false } }, { judges: async () => judges });
      expect(roundShapes(queuedPlain.events)).toEqual(roundShapes(localPlain));
      expect(queuedPlain.events.some((event) => event.type === 'judge')).toBe(false);
    });
  });
});
