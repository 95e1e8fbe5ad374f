import { Queue, QueueEvents } from 'bullmq';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { ArmResult, RunEvent, RunEventInput, TargetInfo } from '@holdfast/core/contract';
import { completedRounds, decideWithDeadline, planRounds, runStartDraft } from '../experiment/index.js';
import type { ExperimentOutcome, RoundSpec, SessionBaseOptions } from '../experiment/index.js';
import { computeTotals, findRound, initialRunState, openRunFile, reduceRunEvent } from '../store/index.js';
import type { RunFileWriter, RunState } from '../store/index.js';
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

type ApprovalRequest = Extract<RoundProgress['event'], { type: 'approval-request' }>;

/**
 * The coordinator of a distributed run: it queues every round (one job per round, the job id made
 * from the round id, so a second add of the same round is refused by the queue), is the only writer
 * of the run file, and ends when every round has a result. A result is accepted once by round id,
 * whatever retries, stalls and late workers do; a round that came back after a worker died shows as
 * a second `round-start` with its attempt and worker. Resuming re-attaches to the same jobs: results
 * that arrived while no coordinator ran are read from the queue.
 */
export async function runQueuedSession(options: QueuedSessionOptions): Promise<QueuedSessionResult> {
  const session = await QueuedSession.open(options);
  try {
    await session.collect();
  } catch (error) {
    session.fail(error);
  } finally {
    await session.stopListening();
  }
  return session.finish();
}

/** One coordinator's state: the run file it writes, the queues it reads, and the rounds still without a result. */
class QueuedSession {
  private state: RunState = initialRunState();
  /** Round events already in the file, by `eventKey`: each is written once, live or from a round's result. */
  private readonly written = new Set<string>();
  private readonly byWorker = new Map<string, number>();
  private readonly pending = new Map<string, RoundSpec>();
  private readonly planned: readonly RoundSpec[];
  private readonly done: ReadonlySet<string>;
  private readonly roundByJob: ReadonlyMap<string, RoundSpec>;
  private readonly tasksById: ReadonlyMap<string, QueuedSessionOptions['tasks'][number]>;
  private readonly play: RoundPlay;
  private readonly now: () => Date;
  private readonly signal: AbortSignal;
  /** Questions put to the person, by approval id: withdrawn once the worker ended the request (its deadline passed) or the run ends. */
  private readonly asking = new Map<string, AbortController>();
  private failure: string | undefined;
  /** Set once the run is being ended: late events from the queue are no longer written. */
  private closing = false;
  private wake: () => void = () => undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  private constructor(
    private readonly options: QueuedSessionOptions,
    private readonly writer: RunFileWriter,
    private readonly queues: ReadonlyMap<string, Queue>,
    private readonly publisher: Redis,
    private readonly events: readonly QueueEvents[],
    private readonly isolated: boolean,
  ) {
    this.now = options.now ?? (() => new Date());
    this.signal = options.signal ?? new AbortController().signal;
    for (const event of options.previous ?? []) {
      this.state = reduceRunEvent(this.state, event);
      this.written.add(eventKey(event));
    }
    this.play = options.play ?? { judge: false };
    this.tasksById = new Map(options.tasks.map((task) => [task.id, task]));
    this.planned = planRounds(options.config);
    this.done = completedRounds(this.state);
    for (const round of this.planned) if (!this.done.has(round.roundId)) this.pending.set(round.roundId, round);
    this.roundByJob = new Map(this.planned.map((round) => [roundJobId(options.runId, round.roundId), round]));
  }

  /** Opens the run file and connects to one queue per target. */
  static async open(options: QueuedSessionOptions): Promise<QueuedSession> {
    const writer = openRunFile(options.out, {
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
    });
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
    return new QueuedSession(options, writer, queues, publisher, events, isolated);
  }

  private time(): string {
    return this.now().toISOString();
  }

  private emit(draft: RunEventInput): RunEvent {
    const event = this.writer.append(draft);
    this.state = reduceRunEvent(this.state, event);
    this.written.add(eventKey(event));
    this.options.onEvent?.(event, this.state);
    return event;
  }

  private settled(): boolean {
    return this.pending.size === 0 || this.failure !== undefined || this.signal.aborted;
  }

  /** The first failure ends the run as failed, naming why. */
  fail(error: unknown): void {
    this.failure ??= error instanceof Error ? error.message : String(error);
    this.wake();
  }

  /** A listener that throws (the run file cannot be written) ends the run as failed instead of leaving it waiting. */
  private guarded(handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.fail(error);
    }
  }

  /** A job's return value as a round's outcome; one this holdfast cannot read fails the run, naming why. */
  private outcomeOf(value: unknown): RoundOutcome | undefined {
    try {
      return parseRoundOutcome(typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private unwrittenIn(round: RoundSpec): (event: RoundOutcome['events'][number]) => boolean {
    return (event) => !this.written.has(eventKey({ ...event, runId: this.options.runId, ...round }));
  }

  /** Judge grades follow the verdicts they grade, as in an in-process run; each is written once. */
  private writeGrades(round: RoundSpec, outcome: RoundOutcome): void {
    const unwritten = this.unwrittenIn(round);
    for (const event of outcome.events) if (event.type === 'judge' && unwritten(event)) this.emit({ ...event, runId: this.options.runId, ...round });
  }

  private accept(round: RoundSpec, value: unknown): void {
    if (!this.pending.has(round.roundId) || this.closing || value === null || value === undefined) return;
    const outcome = this.outcomeOf(value);
    if (outcome === undefined) return;
    this.pending.delete(round.roundId);
    const key = { runId: this.options.runId, ...round };
    const unwritten = this.unwrittenIn(round);
    // A coordinator killed between a round's two lines left one arm in the file: the job's result is
    // the same one, so a resumed coordinator writes only the arm that is missing.
    const arms = this.state.rounds.at(findRound(this.state, round.roundId));
    // What was missed while no coordinator listened (its start, its approvals) comes first, as it was
    // emitted; once an arm is in the file they were written before it (a late start would reset the round).
    if (arms?.told === undefined && arms?.held === undefined) {
      for (const event of outcome.events) if (event.type !== 'judge' && unwritten(event)) this.emit({ ...event, ...key });
    }
    if (arms?.told === undefined) this.emit({ ...key, type: 'arm-end', time: this.time(), result: outcome.told });
    if (arms?.held === undefined) this.emit({ ...key, type: 'arm-end', time: this.time(), result: outcome.held });
    this.writeGrades(round, outcome);
    for (const event of outcome.events) if (event.type === 'approval-end') this.asking.get(event.approvalId)?.abort();
    this.byWorker.set(outcome.worker, (this.byWorker.get(outcome.worker) ?? 0) + 1);
    this.options.onRoundEnd?.(round, { told: outcome.told, held: outcome.held }, outcome.worker);
    this.wake();
  }

  private async relayApproval(round: RoundSpec, event: ApprovalRequest): Promise<void> {
    if (this.options.approver === undefined) return;
    const deadline = new Date(event.deadline);
    const withdrawn = new AbortController();
    this.asking.set(event.approvalId, withdrawn);
    try {
      const decision = await decideWithDeadline(
        this.options.approver,
        { ...round, approvalId: event.approvalId, message: event.message, files: event.files, deadline },
        Math.max(0, deadline.getTime() - this.now().getTime()),
        AbortSignal.any([this.signal, withdrawn.signal]),
      );
      // A cancelled question says nothing: the worker's own deadline refuses the commit.
      if (decision.by !== 'cancel') await publishApproval(this.publisher, event.approvalId, decision);
    } finally {
      this.asking.delete(event.approvalId);
    }
  }

  private onProgress(round: RoundSpec, data: unknown): void {
    if (!this.pending.has(round.roundId) || this.closing) return;
    const parsed = safeParseRoundProgress(data);
    if (!parsed.success) return;
    const event = { ...parsed.data.event, runId: this.options.runId, ...round };
    if (this.written.has(eventKey(event))) return;
    this.emit(event);
    const asks = this.options.config.approve === 'ask' || this.options.config.approve === 'http';
    if (event.type === 'approval-request' && asks) this.relayApproval(round, event).catch(() => undefined);
    if (event.type === 'approval-end') this.asking.get(event.approvalId)?.abort();
  }

  /** Reads a job's state from the queue: a result accepted, a final failure noted (tried again on resume), a lost job queued again. */
  private async reconcile(round: RoundSpec, resuming = false): Promise<void> {
    const queue = this.queues.get(round.target)!;
    const jobId = roundJobId(this.options.runId, round.roundId);
    // The state first, then the job: a job read first could finish in between and show no return value.
    const jobState = await queue.getJobState(jobId);
    if (jobState === 'unknown') {
      await this.enqueue([round]);
      return;
    }
    if (jobState !== 'completed' && jobState !== 'failed') return;
    const job: Job | undefined = await queue.getJob(jobId);
    if (job === undefined) return;
    if (jobState === 'completed') this.guarded(() => this.accept(round, job.returnvalue));
    else if (resuming) await job.retry('failed');
    else this.fail(`round ${round.roundId} failed on every try: ${job.failedReason}`);
  }

  /**
   * A coordinator killed after a round's verdicts but before (some of) its judge grades left the round
   * complete in the file: the grades it missed are read back from the round's job, which stays queued
   * until the run completes.
   */
  private async restoreGrades(round: RoundSpec): Promise<void> {
    const job: Job | undefined = await this.queues.get(round.target)!.getJob(roundJobId(this.options.runId, round.roundId));
    if (job?.returnvalue === null || job?.returnvalue === undefined) return;
    this.guarded(() => {
      const outcome = this.outcomeOf(job.returnvalue);
      if (outcome !== undefined) this.writeGrades(round, outcome);
    });
  }

  private async enqueue(rounds: readonly RoundSpec[]): Promise<void> {
    const { runId, config, rulebook } = this.options;
    const byTarget = new Map<string, RoundSpec[]>();
    for (const round of rounds) byTarget.set(round.target, [...(byTarget.get(round.target) ?? []), round]);
    for (const [target, list] of byTarget) {
      await this.queues.get(target)!.addBulk(
        list.map((round) => {
          const data: RoundJob = { runId, round, config, rulebook, task: this.tasksById.get(round.task)!, play: this.play };
          return { name: 'round', data, opts: { jobId: roundJobId(runId, round.roundId), attempts: ROUND_ATTEMPTS, backoff: { type: 'fixed', delay: 1_000 } } };
        }),
      );
    }
  }

  /** Listens to every queue's progress, results and failures; resolves once the listeners are connected. */
  private async listen(): Promise<void> {
    for (const listener of this.events) {
      listener.on('progress', ({ jobId, data }) => {
        const round = this.roundByJob.get(jobId);
        if (round !== undefined) this.guarded(() => this.onProgress(round, data));
      });
      listener.on('completed', ({ jobId, returnvalue }) => {
        const round = this.roundByJob.get(jobId);
        if (round !== undefined) this.guarded(() => this.accept(round, returnvalue));
      });
      listener.on('failed', ({ jobId }) => {
        const round = this.roundByJob.get(jobId);
        if (round !== undefined && this.pending.has(round.roundId)) this.reconcile(round).catch(() => undefined);
      });
    }
    await Promise.all(this.events.map((listener) => listener.waitUntilReady()));
  }

  /** Per-target limits live on the queue, so every worker honours them; a run without them clears a previous run's. */
  private async applyLimits(): Promise<void> {
    const { limits } = this.options;
    for (const queue of this.queues.values()) {
      await (limits?.concurrency !== undefined ? queue.setGlobalConcurrency(limits.concurrency) : queue.removeGlobalConcurrency());
      await (limits?.rate !== undefined ? queue.setGlobalRateLimit(limits.rate.max, limits.rate.durationMs) : queue.removeGlobalRateLimit());
    }
  }

  private async announceWorkers(): Promise<void> {
    const workers = await liveWorkers(this.publisher, Date.now());
    const served = new Set(workers.flatMap((worker) => worker.queues));
    const targetIds = [...new Set(this.options.config.targets)];
    this.options.onWorkers?.(
      workers,
      targetIds.filter((target) => !served.has(roundQueueName(target, this.isolated))),
    );
  }

  private async beat(): Promise<void> {
    if (this.options.onWorkerBeat === undefined) return;
    const queueNames = new Set([...this.queues.values()].map((queue) => queue.name));
    this.options.onWorkerBeat(await workerBeats(this.publisher, this.now().getTime(), queueNames, SHOW_STALE_MS));
  }

  /** Queues the rounds (or re-attaches to them on resume) and waits until each has a result, the run fails or is aborted. */
  async collect(): Promise<void> {
    const { options, pending } = this;
    if (options.previous === undefined) this.emit(runStartDraft(options, this.time()));
    // Listen before queueing, so no result can slip between the two.
    await this.listen();
    await this.applyLimits();
    await this.announceWorkers();
    // A resumed run first reads what the queue already holds; a new run's jobs cannot exist yet.
    if (options.previous !== undefined) {
      if ((options.rulebook.judgeRules ?? []).length > 0) {
        await Promise.all(this.planned.filter((round) => this.done.has(round.roundId)).map((round) => this.restoreGrades(round)));
      }
      await Promise.all([...pending.values()].map((round) => this.reconcile(round, true)));
    } else await this.enqueue([...pending.values()]);
    await this.beat();

    const onAbort = () => this.wake();
    this.signal.addEventListener('abort', onAbort, { once: true });
    this.timer = setInterval(() => {
      for (const round of [...pending.values()]) this.reconcile(round).catch(() => undefined);
      this.beat().catch(() => undefined);
    }, options.reconcileMs ?? DEFAULT_RECONCILE_MS);
    while (!this.settled()) await new Promise<void>((resolve) => (this.wake = resolve));
    this.signal.removeEventListener('abort', onAbort);
  }

  /** Late events are no longer written, open questions are withdrawn. */
  async stopListening(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    for (const question of this.asking.values()) question.abort();
    await Promise.all(this.events.map((listener) => listener.close()));
  }

  /** Writes the totals and the run's end, removes a completed run's jobs, and closes the file and the connections. */
  async finish(): Promise<QueuedSessionResult> {
    const { runId } = this.options;
    const roundsRun = [...this.byWorker.values()].reduce((sum, count) => sum + count, 0);
    let outcome: ExperimentOutcome;
    try {
      this.emit({ runId, type: 'totals', time: this.time(), totals: computeTotals(this.state) });
      if (this.failure !== undefined) {
        this.emit({ runId, type: 'run-end', time: this.time(), status: 'failed', reason: this.failure });
        outcome = { status: 'failed', reason: this.failure, roundsRun };
      } else if (this.pending.size > 0) {
        // Interrupted: the jobs stay queued (workers go on); --resume collects their results.
        const reason = `Interrupted with ${this.pending.size} of ${this.planned.length} rounds without a result; they stay queued.`;
        this.emit({ runId, type: 'run-end', time: this.time(), status: 'interrupted', reason });
        outcome = { status: 'interrupted', reason, roundsRun };
      } else {
        this.emit({ runId, type: 'run-end', time: this.time(), status: 'completed' });
        outcome = { status: 'completed', roundsRun };
        // Every result is in the run file: the run's jobs are no longer needed in Redis.
        await Promise.all(
          this.planned.map((round) =>
            this.queues
              .get(round.target)!
              .remove(roundJobId(runId, round.roundId))
              .catch(() => 0),
          ),
        );
      }
    } finally {
      this.writer.close();
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      this.publisher.disconnect();
    }
    return { outcome, state: this.state, path: this.writer.path, byWorker: this.byWorker };
  }
}
