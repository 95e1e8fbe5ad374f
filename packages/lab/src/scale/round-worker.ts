import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { Queue, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { InputError } from '@holdfast/core/contract';
import type { ArmResult, RunEvent, RunEventInput, Rulebook, Timers } from '@holdfast/core/contract';
import { policyApprover, runExperiment } from '../experiment/index.js';
import type { ExperimentOptions, ExperimentTarget } from '../experiment/index.js';
import type { JudgeLookup } from '../judge/index.js';
import { redact } from '../models/index.js';
import { sandboxLander } from '../sandbox/index.js';
import type { Isolation } from '../sandbox/index.js';
import { openApprovalRelay } from './approval-relay.js';
import { parseRoundJob, parseTryLog } from './round-job.js';
import type { RoundJob, RoundOutcome, RoundProgress } from './round-job.js';
import { roundQueueName, runsCommands } from './round-queues.js';
import type { QueueConnection } from './queue-url.js';
import { redisOptions } from './queue-url.js';
import { HEARTBEAT_MS, advertiseWorker, withdrawWorker } from './worker-registry.js';

export const DEFAULT_STALL_TIMEOUT_MS = 30_000;

export interface RoundWorkerOptions {
  readonly connection: QueueConnection;
  readonly workerId: string;
  /** The targets this machine can play (its own definitions and keys); `pauseTarget` honours a Retry-After on every machine. */
  readonly targets: (pauseTarget: (targetId: string, ms: number) => void) => Promise<readonly ExperimentTarget[]>;
  /** How model-written commands are confined here; rounds that run commands need it (or `allowUnisolated`). */
  readonly isolation: Isolation;
  readonly allowUnisolated?: boolean;
  /** Rounds in flight at once, per target queue. */
  readonly concurrency?: number;
  /** A round whose worker stops renewing its lock this long (killed, frozen) goes back to the queue. */
  readonly stallTimeoutMs?: number;
  readonly secrets?: readonly string[];
  /**
   * This machine's judge models for a rulebook's judge rules (its own config and keys). Absent: a
   * round whose run grades judge rules records each as judge-error, as a run without that target does.
   */
  readonly judges?: (rulebook: Rulebook) => Promise<JudgeLookup>;
  /** What the held arm's approval deadline runs on here (the worker keeps it, so a lost coordinator fails closed); real timers when absent. */
  readonly timers?: Timers;
  /** Told when a round starts and ends here (the worker command's log). */
  readonly onRound?: (what: { readonly phase: 'start' | 'end'; readonly roundId: string; readonly attempt: number; readonly outcome?: RoundOutcome }) => void;
  readonly onError?: (error: Error) => void;
}

export interface RoundWorker {
  readonly id: string;
  readonly queues: readonly string[];
  /** Stops taking rounds, lets the rounds in flight finish, and leaves the registry. */
  close(): Promise<void>;
}

/** The harness labels of agent targets: what the worker advertises as agent binaries present. */
function agentLabels(targets: readonly ExperimentTarget[]): string[] {
  return targets.flatMap((target) => (target.harness !== undefined ? [`${target.info.id}: ${target.harness.label}`] : []));
}

/**
 * Takes rounds from the queues of the targets it can play and plays each with the same runner as
 * an in-process run (one round at a time through `runExperiment`), so a distributed sweep judges
 * exactly as a local one. The round's live events go back as job progress, both arms as the job's
 * return value; the coordinator decides what reaches the run file.
 */
export async function startRoundWorker(options: RoundWorkerOptions): Promise<RoundWorker> {
  const connection = redisOptions(options.connection);
  const concurrency = options.concurrency ?? 1;
  const isolatedOk = options.isolation.kind !== 'none' || options.allowUnisolated === true;
  const pausers = new Map<string, Queue[]>();
  const pauseTarget = (targetId: string, ms: number) => {
    for (const queue of pausers.get(targetId) ?? []) queue.rateLimit(ms).catch((error: unknown) => options.onError?.(error as Error));
  };
  const targets = new Map((await options.targets(pauseTarget)).map((target) => [target.info.id, target]));
  const relay = await openApprovalRelay(options.connection);
  const registry = new Redis(connection);
  // Approval ids are unique across restarts of a worker under the same --id: the coordinator writes each once by id.
  const approvalPrefix = `${options.workerId}-${randomBytes(3).toString('hex')}`;
  let approvalCount = 0;
  const scrub = secretScrubber(options.secrets ?? []);

  async function playRound(job: Job): Promise<RoundOutcome> {
    const data = parseRoundJob(job.data);
    const target = targets.get(data.round.target);
    // Routing sends only rounds of targets this worker listens for; anything else is a bug worth failing loudly.
    if (target === undefined) throw new Error(`worker ${options.workerId} got a round of target "${data.round.target}", which it does not play`);
    const attempt = Math.max(1, job.attemptsStarted);
    options.onRound?.({ phase: 'start', roundId: data.round.roundId, attempt });
    const arms: { told?: ArmResult; held?: ArmResult } = {};
    const grades: RoundOutcome['events'] = [];
    const send = async (event: RoundProgress['event']) => {
      const progress = scrub<RoundProgress>({ worker: options.workerId, attempt, event });
      // Logged before it is sent: the job's log holds what every try sent, whether a coordinator listened or not.
      await job.log(JSON.stringify(progress));
      await job.updateProgress(progress);
    };
    const local = data.config.approve === 'auto' || data.config.approve === 'deny';
    await runExperiment({
      runId: data.runId,
      config: data.config,
      rulebook: data.rulebook,
      tasks: [data.task],
      targets: [target],
      approver: local ? policyApprover(data.config.approve === 'auto' ? 'approved' : 'refused') : relay,
      rounds: [data.round],
      emitStart: false,
      emitEnd: false,
      generateId: () => `${approvalPrefix}-${(approvalCount += 1)}`,
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
      ...(options.timers !== undefined ? { timers: options.timers } : {}),
      ...(await playOptions(options, data)),
      emit: async (draft: RunEventInput) => {
        if (draft.type === 'arm-end') arms[draft.result.arm] = draft.result;
        else if (draft.type === 'round-start') await send({ ...draft, worker: options.workerId, attempt });
        else if (draft.type === 'approval-request' || draft.type === 'approval-end') await send(draft);
        else if (draft.type === 'judge') grades.push(draft);
        return { ...draft, seq: 0 } as RunEvent;
      },
    });
    if (arms.told === undefined || arms.held === undefined) throw new Error(`round ${data.round.roundId} ended without both arms`);
    // Every try's live events as logged, earlier tries' (a worker that died, perhaps while no coordinator ran)
    // before this one's, then this try's judge grades: a coordinator that missed them writes them from here.
    const { logs } = await logReaders.get(job.queueName)!.getJobLogs(job.id!);
    const live = parseTryLog(logs).map((entry) => entry.event);
    const outcome: RoundOutcome = scrub({ worker: options.workerId, attempt, told: arms.told, held: arms.held, events: [...live, ...grades] });
    options.onRound?.({ phase: 'end', roundId: data.round.roundId, attempt, outcome });
    return outcome;
  }

  const { queueNames, workers, logReaders, pausers: queuesByTarget } = openRoundQueues(options, [...targets.keys()], isolatedOk, playRound);
  for (const [targetId, queues] of queuesByTarget) pausers.set(targetId, queues);
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));

  const advertise = () =>
    advertiseWorker(registry, {
      id: options.workerId,
      host: hostname(),
      pid: process.pid,
      targets: [...targets.keys()],
      agents: agentLabels([...targets.values()]),
      isolation: options.isolation.kind,
      unsafe: options.allowUnisolated === true,
      queues: queueNames,
      concurrency,
      seenAt: Date.now(),
    });
  await advertise();
  const heartbeat = setInterval(() => advertise().catch((error: unknown) => options.onError?.(error as Error)), HEARTBEAT_MS);
  heartbeat.unref();

  return {
    id: options.workerId,
    queues: queueNames,
    async close() {
      clearInterval(heartbeat);
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([...pausers.values()].flat().map((queue) => queue.close()));
      await withdrawWorker(registry, options.workerId).catch(() => undefined);
      registry.disconnect();
      await relay.close();
    },
  };
}
/** The run's sandbox, agent and judge options as this machine carries them out (its isolation, its judge keys). */
async function playOptions(options: RoundWorkerOptions, data: RoundJob): Promise<Pick<ExperimentOptions, 'sandbox' | 'openLander' | 'agent' | 'judge'>> {
  const { keepDir, nodeModules } = data.play;
  if (nodeModules !== undefined && !existsSync(nodeModules)) {
    throw new InputError(
      'E_ARGS',
      `worker ${options.workerId}: the run's --node-modules ${nodeModules} does not exist on this machine; install it at the same path on every worker (or a shared mount).`,
    );
  }
  const agentMode = data.config.mode === 'agent';
  const judging = data.play.judge && (data.rulebook.judgeRules ?? []).length > 0;
  const sandbox = {
    isolation: options.isolation,
    allowUnisolated: options.allowUnisolated === true,
    ...(keepDir !== undefined && !agentMode ? { keepDir } : {}),
    ...(nodeModules !== undefined ? { nodeModules: () => nodeModules } : {}),
    ...(data.config.sandboxMaxBytes !== undefined ? { maxBytes: data.config.sandboxMaxBytes } : {}),
  };
  return {
    ...(runsCommands(data.config) ? { sandbox } : {}),
    // Plan mode's applied actions land in the sandbox lander, as in an in-process run.
    ...(data.config.sandbox && (data.config.mode ?? 'plan') === 'plan' ? { openLander: sandboxLander(sandbox) } : {}),
    ...(agentMode && keepDir !== undefined ? { agent: { keepDir } } : {}),
    ...(judging ? { judge: { judges: options.judges !== undefined ? await options.judges(data.rulebook) : () => undefined } } : {}),
  };
}

/** One worker per round queue of each target (the isolated queue too where commands can be confined here), and one queue handle each to pause it (Retry-After) and to read a job's try log. */
function openRoundQueues(
  options: RoundWorkerOptions,
  targetIds: readonly string[],
  isolatedOk: boolean,
  playRound: (job: Job) => Promise<RoundOutcome>,
): { queueNames: string[]; workers: Worker[]; logReaders: Map<string, Queue>; pausers: Map<string, Queue[]> } {
  const connection = redisOptions(options.connection);
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 1;
  const pausers = new Map<string, Queue[]>();
  const queueNames: string[] = [];
  const workers: Worker[] = [];
  const logReaders = new Map<string, Queue>();
  for (const targetId of targetIds) {
    const names = [roundQueueName(targetId, false), ...(isolatedOk ? [roundQueueName(targetId, true)] : [])];
    for (const name of names) logReaders.set(name, new Queue(name, { connection }));
    pausers.set(
      targetId,
      names.map((name) => logReaders.get(name)!),
    );
    for (const name of names) {
      queueNames.push(name);
      const worker = new Worker(name, playRound, {
        connection,
        concurrency,
        lockDuration: stallTimeoutMs,
        stalledInterval: stallTimeoutMs,
        // A round whose worker died comes back; one that kills every worker that takes it stops after a few.
        maxStalledCount: 3,
        // BullMQ honours a manual pause (a Retry-After, see pauseTarget) only on a rate-limited queue:
        // this limit never binds; the coordinator's --target-rate, when set, replaces it for every worker.
        limiter: { max: 1_000_000, duration: 1_000 },
      });
      worker.on('error', (error) => options.onError?.(error));
      workers.push(worker);
    }
  }
  return { queueNames, workers, logReaders, pausers };
}

/**
 * The coordinator holds no keys, so it cannot redact them: whatever leaves this machine (an error
 * message that echoes a request, a tool input) has the worker's keys replaced first, in both spellings.
 */
function secretScrubber(keys: readonly string[]): <T>(value: T) => T {
  const secrets = keys.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
  return <T>(value: T): T => (secrets.length === 0 ? value : (JSON.parse(redact(JSON.stringify(value), secrets)) as T));
}
