import { Queue, QueueEvents } from 'bullmq';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { ArmResult, RunEvent, RunEventInput, TargetInfo } from '@holdfast/core/contract';
import { completedRounds, decideWithDeadline, planRounds, runStartDraft } from '../experiment/index.js';
import type { ExperimentOutcome, RoundSpec, SessionBaseOptions } from '../experiment/index.js';
import { computeTotals, findRound, initialRunState, openRunFile, reduceRunEvent } from '../store/index.js';
import type { RunState } from '../store/index.js';
import { publishApproval } from './approval-relay.js';
import { parseRoundOutcome, safeParseRoundProgress } from './round-job.js';
import type { RoundJob, RoundOutcome, RoundPlay, RoundProgress } from './round-job.js';
import { roundJobId, roundQueueName, runsCommands } from './round-queues.js';
import type { QueueConnection } from './queue-url.js';
import { redisOptions } from './queue-url.js';
import { liveWorkers, workerBeats } from './worker-registry.js';
import type { WorkerBeat, WorkerCapabilities } from './worker-registry.js';

/** Limits on one target's rounds across every worker: a provider's limits are per key, not per machine. */
export interface TargetLimits {
  /** Rounds of one target in flight at once, whichever workers hold them. */
  readonly concurrency?: number;
  /** Rounds of one target started per `durationMs`. */
  readonly rate?: { readonly max: number; readonly durationMs: number };
}

/** The approver answers commits of `ask` runs (the terminal, the web app); `auto` and `deny` are decided on the worker. */
export interface QueuedSessionOptions extends SessionBaseOptions {
  readonly connection: QueueConnection;
  /** What the run file says of each target; the workers hold the definitions and keys. */
  readonly targets: readonly TargetInfo[];
  readonly limits?: TargetLimits;
  /** The run options workers must honour to play a round as an in-process run would; default: no judging, nothing kept. */
  readonly play?: RoundPlay;
  /** How often the queue is read for results whose event was missed (a coordinator restart, a dropped connection). */
  readonly reconcileMs?: number;
  readonly now?: () => Date;
  readonly onEvent?: (event: RunEvent, state: RunState) => void;
  readonly onRoundEnd?: (round: RoundSpec, results: { told: ArmResult; held: ArmResult }, worker: string) => void;
  /** The live workers when the rounds are queued, and the targets none of them can play. */
  readonly onWorkers?: (workers: readonly WorkerCapabilities[], unserved: readonly string[]) => void;
  /** The workers listening to this run's queues, live or stale, when the rounds are queued and at every reconcile. */
  readonly onWorkerBeat?: (workers: readonly WorkerBeat[]) => void;
}

/** A stale worker is shown this long after its last heartbeat, then forgotten (a killed worker never leaves the registry). */
const SHOW_STALE_MS = 10 * 60_000;

export interface QueuedSessionResult {
  readonly outcome: ExperimentOutcome;
  readonly state: RunState;
  readonly path: string;
  /** Rounds accepted from each worker in this session. */
  readonly byWorker: ReadonlyMap<string, number>;
}

export const DEFAULT_RECONCILE_MS = 2_000;

/**
 * Which round event this is, for writing each once: a round's start per try (a retried round starts
 * again, visibly), an approval's request and end by id, a judge grade per arm.
 */
function eventKey(event: RunEventInput): string {
  switch (event.type) {
    case 'round-start':
      return `start ${event.roundId} ${event.attempt ?? 1}`;
    case 'approval-request':
    case 'approval-end':
      return `${event.type} ${event.approvalId}`;
    case 'judge':
      return `judge ${event.roundId} ${event.arm} ${event.source}`;
    default:
      // Arms are written once by the round's state; run-level events once by the coordinator's own flow.
      return event.type;
  }
}
/** Tries of one round that fails outright (not a stall: a stalled round comes back on its own). */
const ROUND_ATTEMPTS = 3;

/**
 * The coordinator of a distributed run: it queues every round (one job per round, the job id made
 * from the round id, so a second add of the same round is refused by the queue), is the only writer
 * of the run file, and ends when every round has a result. A result is accepted once by round id,
 * whatever retries, stalls and late workers do; a round that came back after a worker died shows as
 * a second `round-start` with its attempt and worker. Resuming re-attaches to the same jobs: results
 * that arrived while no coordinator ran are read from the queue.
 */
export async function runQueuedSession(options: QueuedSessionOptions): Promise<QueuedSessionResult> {
  const now = options.now ?? (() => new Date());
  const time = () => now().toISOString();
  const signal = options.signal ?? new AbortController().signal;
  let state = initialRunState();
  for (const event of options.previous ?? []) state = reduceRunEvent(state, event);
  const writer = openRunFile(options.out, {
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
  });
  /** Round events already in the file, by `eventKey`: each is written once, live or from a round's result. */
  const written = new Set<string>();
  for (const event of options.previous ?? []) written.add(eventKey(event));
  const emit = (draft: RunEventInput): RunEvent => {
    const event = writer.append(draft);
    state = reduceRunEvent(state, event);
    written.add(eventKey(event));
    options.onEvent?.(event, state);
    return event;
  };
  const connection = redisOptions(options.connection);
  const isolated = runsCommands(options.config);
  const targetIds = [...new Set(options.config.targets)];
  const queues = new Map(targetIds.map((target) => [target, new Queue(roundQueueName(target, isolated), { connection })]));
  const publisher = new Redis(connection);
  // Read each queue's events from the last one already there, not from whenever the listener's
  // first blocking read happens to start: a worker's first approval request must not be missed.
  const events = await Promise.all(
    [...queues.values()].map(async (queue) => {
      const [last] = await publisher.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1);
      return new QueueEvents(queue.name, { connection, lastEventId: last?.[0] ?? '0' });
    }),
  );
  const byWorker = new Map<string, number>();
  const play: RoundPlay = options.play ?? { judge: false };
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));

  const planned = planRounds(options.config);
  const done = completedRounds(state);
  const pending = new Map<string, RoundSpec>();
  for (const round of planned) if (!done.has(round.roundId)) pending.set(round.roundId, round);
  const roundByJob = new Map(planned.map((round) => [roundJobId(options.runId, round.roundId), round]));
  let failure: string | undefined;
  /** Set once the run is being ended: late events from the queue are no longer written. */
  let closing = false;
  let wake: () => void = () => undefined;
  const settled = () => pending.size === 0 || failure !== undefined || signal.aborted;

  /** A listener that throws (the run file cannot be written) ends the run as failed instead of leaving it waiting. */
  function guarded(handle: () => void): void {
    try {
      handle();
    } catch (error) {
      failure ??= error instanceof Error ? error.message : String(error);
      wake();
    }
  }

  /** Questions put to the person, by approval id: withdrawn once the worker ended the request (its deadline passed) or the run ends. */
  const asking = new Map<string, AbortController>();

  /** A job's return value as a round's outcome; one this holdfast cannot read fails the run, naming why. */
  function outcomeOf(value: unknown): RoundOutcome | undefined {
    try {
      return parseRoundOutcome(typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
    } catch (error) {
      failure ??= error instanceof Error ? error.message : String(error);
      wake();
      return undefined;
    }
  }

  const unwrittenIn = (round: RoundSpec) => (event: RoundOutcome['events'][number]) => !written.has(eventKey({ ...event, runId: options.runId, ...round }));

  /** Judge grades follow the verdicts they grade, as in an in-process run; each is written once. */
  function writeGrades(round: RoundSpec, outcome: RoundOutcome): void {
    const unwritten = unwrittenIn(round);
    for (const event of outcome.events) if (event.type === 'judge' && unwritten(event)) emit({ ...event, runId: options.runId, ...round });
  }

  function accept(round: RoundSpec, value: unknown): void {
    if (!pending.has(round.roundId) || closing || value === null || value === undefined) return;
    const outcome = outcomeOf(value);
    if (outcome === undefined) return;
    pending.delete(round.roundId);
    const key = { runId: options.runId, ...round };
    const unwritten = unwrittenIn(round);
    // A coordinator killed between a round's two lines left one arm in the file: the job's result is
    // the same one, so a resumed coordinator writes only the arm that is missing.
    const arms = state.rounds.at(findRound(state, round.roundId));
    // What was missed while no coordinator listened (its start, its approvals) comes first, as it was
    // emitted; once an arm is in the file they were written before it (a late start would reset the round).
    if (arms?.told === undefined && arms?.held === undefined) {
      for (const event of outcome.events) if (event.type !== 'judge' && unwritten(event)) emit({ ...event, ...key });
    }
    if (arms?.told === undefined) emit({ ...key, type: 'arm-end', time: time(), result: outcome.told });
    if (arms?.held === undefined) emit({ ...key, type: 'arm-end', time: time(), result: outcome.held });
    writeGrades(round, outcome);
    for (const event of outcome.events) if (event.type === 'approval-end') asking.get(event.approvalId)?.abort();
    byWorker.set(outcome.worker, (byWorker.get(outcome.worker) ?? 0) + 1);
    options.onRoundEnd?.(round, { told: outcome.told, held: outcome.held }, outcome.worker);
    wake();
  }

  async function relayApproval(round: RoundSpec, event: Extract<RoundProgress['event'], { type: 'approval-request' }>): Promise<void> {
    if (options.approver === undefined) return;
    const deadline = new Date(event.deadline);
    const withdrawn = new AbortController();
    asking.set(event.approvalId, withdrawn);
    try {
      const decision = await decideWithDeadline(
        options.approver,
        { ...round, approvalId: event.approvalId, message: event.message, files: event.files, deadline },
        Math.max(0, deadline.getTime() - now().getTime()),
        AbortSignal.any([signal, withdrawn.signal]),
      );
      // A cancelled question says nothing: the worker's own deadline refuses the commit.
      if (decision.by !== 'cancel') await publishApproval(publisher, event.approvalId, decision);
    } finally {
      asking.delete(event.approvalId);
    }
  }

  function onProgress(round: RoundSpec, data: unknown): void {
    if (!pending.has(round.roundId) || closing) return;
    const parsed = safeParseRoundProgress(data);
    if (!parsed.success) return;
    const event = { ...parsed.data.event, runId: options.runId, ...round };
    if (written.has(eventKey(event))) return;
    emit(event);
    const asks = options.config.approve === 'ask' || options.config.approve === 'http';
    if (event.type === 'approval-request' && asks) relayApproval(round, event).catch(() => undefined);
    if (event.type === 'approval-end') asking.get(event.approvalId)?.abort();
  }

  /** Reads a job's state from the queue: a result accepted, a final failure noted (tried again on resume), a lost job queued again. */
  async function reconcile(round: RoundSpec, resuming = false): Promise<void> {
    const queue = queues.get(round.target)!;
    const jobId = roundJobId(options.runId, round.roundId);
    // The state first, then the job: a job read first could finish in between and show no return value.
    const jobState = await queue.getJobState(jobId);
    if (jobState === 'unknown') {
      await enqueue([round]);
      return;
    }
    if (jobState !== 'completed' && jobState !== 'failed') return;
    const job: Job | undefined = await queue.getJob(jobId);
    if (job === undefined) return;
    if (jobState === 'completed') guarded(() => accept(round, job.returnvalue));
    else if (resuming) await job.retry('failed');
    else {
      failure ??= `round ${round.roundId} failed on every try: ${job.failedReason}`;
      wake();
    }
  }

  /**
   * A coordinator killed after a round's verdicts but before (some of) its judge grades left the round
   * complete in the file: the grades it missed are read back from the round's job, which stays queued
   * until the run completes.
   */
  async function restoreGrades(round: RoundSpec): Promise<void> {
    const job: Job | undefined = await queues.get(round.target)!.getJob(roundJobId(options.runId, round.roundId));
    if (job?.returnvalue === null || job?.returnvalue === undefined) return;
    guarded(() => {
      const outcome = outcomeOf(job.returnvalue);
      if (outcome !== undefined) writeGrades(round, outcome);
    });
  }

  async function enqueue(rounds: readonly RoundSpec[]): Promise<void> {
    const byTarget = new Map<string, RoundSpec[]>();
    for (const round of rounds) byTarget.set(round.target, [...(byTarget.get(round.target) ?? []), round]);
    for (const [target, list] of byTarget) {
      await queues.get(target)!.addBulk(
        list.map((round) => {
          const data: RoundJob = { runId: options.runId, round, config: options.config, rulebook: options.rulebook, task: tasksById.get(round.task)!, play };
          return {
            name: 'round',
            data,
            opts: { jobId: roundJobId(options.runId, round.roundId), attempts: ROUND_ATTEMPTS, backoff: { type: 'fixed', delay: 1_000 } },
          };
        }),
      );
    }
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    if (options.previous === undefined) emit(runStartDraft(options, time()));
    for (const listener of events) {
      listener.on('progress', ({ jobId, data }) => {
        const round = roundByJob.get(jobId);
        if (round !== undefined) guarded(() => onProgress(round, data));
      });
      listener.on('completed', ({ jobId, returnvalue }) => {
        const round = roundByJob.get(jobId);
        if (round !== undefined) guarded(() => accept(round, returnvalue));
      });
      listener.on('failed', ({ jobId }) => {
        const round = roundByJob.get(jobId);
        if (round !== undefined && pending.has(round.roundId)) reconcile(round).catch(() => undefined);
      });
    }
    // Listen before queueing, so no result can slip between the two.
    await Promise.all(events.map((listener) => listener.waitUntilReady()));
    for (const queue of queues.values()) {
      await (options.limits?.concurrency !== undefined ? queue.setGlobalConcurrency(options.limits.concurrency) : queue.removeGlobalConcurrency());
      await (options.limits?.rate !== undefined
        ? queue.setGlobalRateLimit(options.limits.rate.max, options.limits.rate.durationMs)
        : queue.removeGlobalRateLimit());
    }
    const workers = await liveWorkers(publisher, Date.now());
    const served = new Set(workers.flatMap((worker) => worker.queues));
    options.onWorkers?.(
      workers,
      targetIds.filter((target) => !served.has(roundQueueName(target, isolated))),
    );
    // A resumed run first reads what the queue already holds; a new run's jobs cannot exist yet.
    if (options.previous !== undefined) {
      if ((options.rulebook.judgeRules ?? []).length > 0) await Promise.all(planned.filter((round) => done.has(round.roundId)).map(restoreGrades));
      await Promise.all([...pending.values()].map((round) => reconcile(round, true)));
    } else await enqueue([...pending.values()]);

    const queueNames = new Set([...queues.values()].map((queue) => queue.name));
    const beat = async () => {
      if (options.onWorkerBeat !== undefined) options.onWorkerBeat(await workerBeats(publisher, now().getTime(), queueNames, SHOW_STALE_MS));
    };
    await beat();

    const onAbort = () => wake();
    signal.addEventListener('abort', onAbort, { once: true });
    timer = setInterval(() => {
      for (const round of [...pending.values()]) reconcile(round).catch(() => undefined);
      beat().catch(() => undefined);
    }, options.reconcileMs ?? DEFAULT_RECONCILE_MS);
    while (!settled()) await new Promise<void>((resolve) => (wake = resolve));
    signal.removeEventListener('abort', onAbort);
  } catch (error) {
    failure ??= error instanceof Error ? error.message : String(error);
  } finally {
    closing = true;
    clearInterval(timer);
    for (const question of asking.values()) question.abort();
    await Promise.all(events.map((listener) => listener.close()));
  }

  const roundsRun = [...byWorker.values()].reduce((sum, count) => sum + count, 0);
  let outcome: ExperimentOutcome;
  try {
    emit({ runId: options.runId, type: 'totals', time: time(), totals: computeTotals(state) });
    if (failure !== undefined) {
      emit({ runId: options.runId, type: 'run-end', time: time(), status: 'failed', reason: failure });
      outcome = { status: 'failed', reason: failure, roundsRun };
    } else if (pending.size > 0) {
      // Interrupted: the jobs stay queued (workers go on); --resume collects their results.
      const reason = `Interrupted with ${pending.size} of ${planned.length} rounds without a result; they stay queued.`;
      emit({ runId: options.runId, type: 'run-end', time: time(), status: 'interrupted', reason });
      outcome = { status: 'interrupted', reason, roundsRun };
    } else {
      emit({ runId: options.runId, type: 'run-end', time: time(), status: 'completed' });
      outcome = { status: 'completed', roundsRun };
      // Every result is in the run file: the run's jobs are no longer needed in Redis.
      await Promise.all(
        planned.map((round) =>
          queues
            .get(round.target)!
            .remove(roundJobId(options.runId, round.roundId))
            .catch(() => 0),
        ),
      );
    }
  } finally {
    writer.close();
    await Promise.all([...queues.values()].map((queue) => queue.close()));
    publisher.disconnect();
  }
  return { outcome, state, path: writer.path, byWorker };
}
