import { setMaxListeners } from 'node:events';
import { InputError } from '@holdfast/core/contract';
import type { ArmResult, RunConfig, RunEndEvent, RunEvent, RunEventInput, Rulebook, TargetInfo, TaskInfo, Timers, Totals } from '@holdfast/core/contract';
import type { AgentRoundsOptions } from './agent/index.js';
import type { AgentHarness } from '../harness/index.js';
import type { GradeOptions, JudgeLookup } from '../judge/index.js';
import type { ModelAdapter } from '../models/index.js';
import { boundNativeMemory, renderRulebook, RUN_COLLECT_EVERY } from '@holdfast/core/rules';
import { failedTargets } from '../report/index.js';
import { TotalsTally } from '../store/index.js';
import type { ReplyJudge } from './reply-check/index.js';
import type { Approver } from './approvals.js';
import type { Lander, OpenLander } from './lander.js';
import type { LoopWorkspacesRequest } from './loop/loop-workspace.js';
import { loopTask } from './loop/loop-prompt.js';
import { buildMessages } from './prompt.js';
import { planArms } from './plan-arm.js';
import { armPlayer } from './play-arm.js';
import type { PlayArm, RunModes } from './play-arm.js';

/** What the runner needs of a model adapter: `generate` (plan mode), and `converse` for loop mode. */
export type ExperimentModel = Pick<ModelAdapter, 'generate'> & Partial<Pick<ModelAdapter, 'converse'>>;

export interface ExperimentTarget {
  readonly info: TargetInfo;
  readonly model: ExperimentModel;
  /** An agent harness (Claude Code, Codex, a generic agent): the only kind of target agent mode plays. */
  readonly harness?: AgentHarness;
  /** Loop mode: this target's own turn cap, over the run's. */
  readonly turnCap?: number;
}

export interface RoundSpec {
  readonly roundId: string;
  readonly target: string;
  readonly task: string;
  readonly rep: number;
}

export interface ExperimentOptions {
  readonly runId: string;
  readonly config: RunConfig;
  readonly rulebook: Rulebook;
  readonly tasks: readonly TaskInfo[];
  readonly targets: readonly ExperimentTarget[];
  /** Answers held-arm commits. Absent: no human gate, commits are judged by the checks alone. */
  readonly approver?: Approver;
  /** Stamps, stores and broadcasts one event; returns it with its sequence number. */
  readonly emit: (event: RunEventInput) => RunEvent | Promise<RunEvent>;
  readonly signal?: AbortSignal;
  /** Rounds already complete in the file being resumed: they are not run again. */
  readonly done?: ReadonlySet<string>;
  /** Play exactly these rounds instead of the whole plan (a queue worker plays the one round it took). */
  readonly rounds?: readonly RoundSpec[];
  /** False when resuming: the run file already starts with its run-start event. */
  readonly emitStart?: boolean;
  /** False for a queue worker: the coordinator, not the worker, ends the run. */
  readonly emitEnd?: boolean;
  readonly demo?: string;
  /** Written into run-start: why the figures can differ from another output of the same replies. */
  readonly notes?: readonly string[];
  readonly maxTokens?: number;
  readonly now?: () => Date;
  /** What held-arm approval deadlines run on; the real timers when absent. */
  readonly timers?: Timers;
  readonly generateId?: () => string;
  readonly onRoundEnd?: (round: RoundSpec, results: { told: ArmResult; held: ArmResult }) => void;
  /** Totals of everything in the run file so far, emitted as the `totals` event before `run-end`. */
  readonly totals?: () => Totals;
  /** Plan mode with `config.sandbox`: opens the lander the run's applied actions really land in (the runner disposes it). */
  readonly openLander?: OpenLander;
  /** Loop and agent modes: how their commands are confined; loop mode also reads the parent folder and command timeout. */
  readonly sandbox?: SandboxRunOptions;
  /** Agent mode: where the arms' repositories live, whether they are kept, how the task check is confined. */
  readonly agent?: Omit<AgentRoundsOptions, 'rulebook'>;
  /** Values (API keys) kept out of what loop arms record of tool inputs. */
  readonly secrets?: readonly string[];
  /** Reads and checks each plan-mode reply; the server's judges in worker threads. Default: this thread. */
  readonly judgeReply?: ReplyJudge;
  /** Grades the rulebook's judge rules after each arm (advisory: recorded apart, never changes a verdict). */
  readonly judge?: RunJudge;
}

interface RunJudge {
  readonly judges: JudgeLookup;
  readonly options?: Omit<GradeOptions, 'signal'>;
}

/** `allowUnisolated` is `--unsafe-no-isolation`: run model-written commands even where nothing can confine them. */
export type SandboxRunOptions = Pick<LoopWorkspacesRequest, 'isolation' | 'allowUnisolated' | 'parentDir' | 'commandTimeoutMs' | 'nodeModules'>;

export interface ExperimentOutcome {
  readonly status: RunEndEvent['status'];
  readonly reason?: string;
  readonly roundsRun: number;
  /** Targets every one of whose model calls failed. */
  readonly failedTargets?: readonly { target: string; reason: string }[];
}

export const DEFAULT_MAX_TOKENS = 8_000;

/** Round ids are deterministic so a resumed run can tell which rounds are missing. */
function resultOf(event: RunEvent, fallback: ArmResult): ArmResult {
  return event.type === 'arm-end' ? event.result : fallback;
}

export function roundIdOf(target: string, task: string, rep: number): string {
  return `${target}/${task}/${rep}`;
}

/**
 * Every round of the run in queue order, made one at a time: repetition-major, so early results
 * cover every task and target. A generator, so a 20,000-call run does not hold its whole plan.
 */
export function* roundsInOrder(config: Pick<RunConfig, 'targets' | 'tasks' | 'reps'>): Generator<RoundSpec, void, undefined> {
  for (let rep = 0; rep < config.reps; rep += 1) {
    for (const task of config.tasks) {
      for (const target of config.targets) yield { roundId: roundIdOf(target, task, rep), target, task, rep };
    }
  }
}

/** Every round of the run in queue order, as a list. */
export function planRounds(config: Pick<RunConfig, 'targets' | 'tasks' | 'reps'>): RoundSpec[] {
  return [...roundsInOrder(config)];
}

/** The rounds still to play, made as they are taken (a resumed run skips those already `done`), and how many there are. */
function roundQueue(options: Pick<ExperimentOptions, 'rounds' | 'config' | 'done'>): { rounds: Iterator<RoundSpec>; length: number } {
  const toPlay = (round: RoundSpec) => !options.done?.has(round.roundId);
  if (options.rounds !== undefined) {
    const rounds = options.rounds.filter(toPlay);
    return { rounds: rounds.values(), length: rounds.length };
  }
  const { reps, tasks, targets } = options.config;
  let length = reps * tasks.length * targets.length;
  // Resuming: count what is left (a pass without keeping anything); a fresh run's count is the product.
  if (options.done !== undefined && options.done.size > 0) {
    length = 0;
    for (const round of roundsInOrder(options.config)) if (toPlay(round)) length += 1;
  }
  return {
    rounds: (function* () {
      for (const round of roundsInOrder(options.config)) if (toPlay(round)) yield round;
    })(),
    length,
  };
}

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'E_PROVIDER', message: error.message };
  }
  return { code: 'E_PROVIDER', message: String(error) };
}

/** The run-start event of a run: what a reader needs to know before the first round. */
export function runStartDraft(
  options: Pick<ExperimentOptions, 'runId' | 'config' | 'rulebook' | 'tasks' | 'demo' | 'notes'> & { readonly targets: readonly TargetInfo[] },
  time: string,
  isolation?: Lander['isolation'],
): RunEventInput {
  return {
    runId: options.runId,
    type: 'run-start',
    time,
    // A plan run keeps the format every reader knows; sessions need a reader of version 2, warned counts one of 3.
    version: options.rulebook.rules.some((rule) => rule.enforcement === 'warn') ? 3 : (options.config.mode ?? 'plan') === 'plan' ? 1 : 2,
    config: options.config,
    rulebook: options.rulebook,
    tasks: options.tasks.filter((task) => options.config.tasks.includes(task.id)),
    targets: [...options.targets],
    ...(options.demo !== undefined ? { demo: options.demo } : {}),
    ...(options.notes !== undefined && options.notes.length > 0 ? { notes: [...options.notes] } : {}),
    ...(isolation !== undefined ? { isolation: { kind: isolation.kind, detail: isolation.detail } } : {}),
  };
}

/** What the run's mode needs before its first event: agent rounds, loop workspaces or a lander; each refuses without isolation. */
async function openModes(options: ExperimentOptions): Promise<RunModes> {
  const mode = options.config.mode ?? 'plan';
  // Before anything is written: without isolation (and without the person's explicit say-so) there is no run.
  if (mode === 'agent') {
    const missing = options.targets.filter((target) => target.harness === undefined && options.config.targets.includes(target.info.id));
    if (missing.length > 0) {
      throw new InputError(
        'E_TARGET_KIND',
        `agent mode plays agent harnesses only; ${missing.map((target) => `"${target.info.id}" (${target.info.provider})`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not one. Give a target provider: claude-code, codex, gemini-cli, qwen-code, opencode, copilot-cli or agent.`,
      );
    }
    const { createAgentRounds } = await import('./agent/index.js');
    const agentRounds = await createAgentRounds({
      rulebook: options.rulebook,
      ...options.agent,
      ...(options.sandbox?.isolation !== undefined ? { isolation: options.sandbox.isolation } : {}),
      ...(options.sandbox?.allowUnisolated !== undefined ? { allowUnisolated: options.sandbox.allowUnisolated } : {}),
      ...(options.config.sandboxMaxBytes !== undefined ? { maxBytes: options.config.sandboxMaxBytes } : {}),
    });
    return { agentRounds };
  }
  if (mode === 'loop') {
    const { openLoopWorkspaces } = await import('./loop/loop-workspace.js');
    const maxBytes = options.config.sandboxMaxBytes;
    return { loop: await openLoopWorkspaces({ rulebook: options.rulebook, ...options.sandbox, ...(maxBytes !== undefined ? { maxBytes } : {}) }) };
  }
  if (options.config.sandbox && mode === 'plan') {
    if (options.openLander === undefined)
      throw new InputError(
        'E_LANDER',
        'the run config asks for a sandbox (config.sandbox), but the run was given no lander (openLander) to land its actions in.',
      );
    return { lander: await options.openLander(options.rulebook) };
  }
  return {};
}

/** What a run builds from a task and its rulebook alone (the prompt, the loop task): built once, the same for every round and both arms. */
function memoByTask<T>(build: (task: TaskInfo) => T): (task: TaskInfo) => T {
  const built = new Map<string, T>();
  return (task) => {
    let value = built.get(task.id);
    if (value === undefined) {
      value = build(task);
      built.set(task.id, value);
    }
    return value;
  };
}

/** Finished rounds, counted as they end and let go: what the run-end needs stays flat in the calls. */
interface RoundTally {
  roundsRun: number;
  readonly finished: TotalsTally;
  readonly finishedTargets: Set<string>;
}

/**
 * Runs targets × tasks × repetitions with a bounded pool. Each round asks the model twice, as two
 * separate generations with the identical prompt; the told arm applies everything and the held
 * arm enforces. Events go out through `emit` as they happen; a cancelled run ends `interrupted`
 * and leaves unfinished rounds out, so `--resume` can run exactly those.
 */
export async function runExperiment(options: ExperimentOptions): Promise<ExperimentOutcome> {
  const now = options.now ?? (() => new Date());
  const signal = options.signal ?? new AbortController().signal;
  // Every in-flight model call listens for cancellation; a wide pool is not a leak.
  setMaxListeners(0, signal);
  const time = () => now().toISOString();
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const targetsById = new Map(options.targets.map((target) => [target.info.id, target]));
  const agentsMd = renderRulebook(options.rulebook);
  const messagesFor = memoByTask((task) => buildMessages(task, agentsMd));
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  // Loop mode: each task's repository carries the rulebook as its AGENTS.md, the same for both arms.
  const loopTaskFor = memoByTask((task) => loopTask(task, agentsMd));
  let approvalCounter = 0;
  const nextApprovalId = options.generateId ?? (() => `approval-${(approvalCounter += 1)}`);
  const plan = planArms({ options, signal, maxTokens, messagesFor, nextApprovalId, now, tasksById, targetsById, describeError });

  const modes = await openModes(options);
  const { agentRounds, loop, lander } = modes;
  const isolation = lander?.isolation ?? loop?.isolation ?? agentRounds?.isolation;

  if (options.emitStart !== false) {
    await options.emit(runStartDraft({ ...options, targets: options.targets.map((target) => target.info) }, time(), isolation));
  }

  const queue = roundQueue(options);
  const tally: RoundTally = { roundsRun: 0, finished: new TotalsTally(), finishedTargets: new Set<string>() };
  const playArm = armPlayer({ options, signal, now, tasksById, targetsById, agentsMd, maxTokens, loopTaskFor, describeError }, modes, plan);
  const poolSize = Math.max(1, Math.min(options.config.concurrency, queue.length));
  let failure: unknown;
  try {
    failure = await drainQueue(queue.rounds, poolSize, signal, (round) => playRound(options, signal, time, playArm, tally, round));
  } finally {
    await lander?.dispose();
    await agentRounds?.dispose();
    await loop?.dispose();
  }

  const { roundsRun, finished, finishedTargets } = tally;
  return endRun(options, { failure, roundsRun, queued: queue.length, finished, finishedTargets, aborted: signal.aborted, time });
}

/**
 * Lets the event loop turn once between rounds. A model answered in process (replay, a script)
 * resolves in a microtask, so without this a whole run is one macrotask: the server's other routes
 * and SSE wait for it, and the native memory of every syntax tree the checks parsed stays held until
 * the run ends, because Node frees a native object's memory in a task after the collector took it.
 */
function turnEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Plays the queue with `poolSize` workers; the first failure stops every worker from taking another round, and is returned. */
async function drainQueue(queue: Iterator<RoundSpec>, poolSize: number, signal: AbortSignal, play: (round: RoundSpec) => Promise<void>): Promise<unknown> {
  let failure: unknown;
  async function worker(): Promise<void> {
    while (!signal.aborted && failure === undefined) {
      const next = queue.next();
      if (next.done === true) return;
      const round = next.value;
      try {
        await play(round);
      } catch (error) {
        failure ??= error;
      }
      await turnEventLoop();
      await boundNativeMemory(RUN_COLLECT_EVERY);
    }
  }
  await Promise.all(Array.from({ length: poolSize }, () => worker()));
  return failure;
}

/** One round: both arms at once, their results recorded, then judged; a cancelled arm leaves the whole round for `--resume`. */
async function playRound(
  options: ExperimentOptions,
  signal: AbortSignal,
  time: () => string,
  playArm: PlayArm,
  tally: RoundTally,
  round: RoundSpec,
): Promise<void> {
  const base = { runId: options.runId };
  await options.emit({ ...base, ...round, type: 'round-start', time: time() });
  const [told, held] = await Promise.all([playArm(round, 'told'), playArm(round, 'held')]);
  if (told === undefined || held === undefined) return;
  const toldEnd = await options.emit({ ...base, ...round, type: 'arm-end', time: time(), result: told });
  const heldEnd = await options.emit({ ...base, ...round, type: 'arm-end', time: time(), result: held });
  // The verdicts are written first: the judge reads them as recorded and can never change them.
  for (const result of [told, held]) await judgeAfterArm(options, signal, time, round, result);
  tally.roundsRun += 1;
  tally.finished.add({ target: round.target, task: round.task, told, held });
  tally.finishedTargets.add(round.target);
  // The results as stored (keys redacted), not as the arms produced them: progress lines print them.
  options.onRoundEnd?.(round, { told: resultOf(toldEnd, told), held: resultOf(heldEnd, held) });
}

async function judgeAfterArm(options: ExperimentOptions, signal: AbortSignal, time: () => string, round: RoundSpec, result: ArmResult): Promise<void> {
  const rules = options.rulebook.judgeRules ?? [];
  if (options.judge === undefined || rules.length === 0 || signal.aborted) return;
  const { judgeArm } = await import('../judge/index.js');
  const judgements = await judgeArm(rules, result, options.judge.judges, { ...options.judge.options, signal });
  if (judgements.length === 0) return;
  await options.emit({ runId: options.runId, ...round, type: 'judge', time: time(), judgeVersion: 1, arm: result.arm, source: 'live', judgements });
}

interface RunEnding {
  readonly failure: unknown;
  readonly roundsRun: number;
  readonly queued: number;
  /** Finished rounds, counted as they end (not kept): enough to tell a target whose every call failed. */
  readonly finished: TotalsTally;
  readonly finishedTargets: ReadonlySet<string>;
  readonly aborted: boolean;
  readonly time: () => string;
}

/** "N of M arms ended in error (first: …)", or undefined when none did. */
function erroredArms(totals: Totals): string | undefined {
  let errors = 0;
  let arms = 0;
  let first: string | undefined;
  for (const arm of totals.arms) {
    errors += arm.errors;
    arms += arm.rounds;
    const reason = arm.errorReasons[0];
    if (first === undefined && reason !== undefined) first = `${arm.target}: ${reason.message} [${reason.code}]`;
  }
  if (errors === 0) return undefined;
  return `${errors} of ${arms} arms ended in error, so the run measured less than it planned${first !== undefined ? ` (first: ${first})` : ''}.`;
}

/** The run's last events (totals, run-end) and its outcome: an outage of every target is a failed run, not a result. */
async function endRun(options: ExperimentOptions, ending: RunEnding): Promise<ExperimentOutcome> {
  const { failure, roundsRun, finished, time } = ending;
  const base = { runId: options.runId };
  if (options.emitEnd === false) {
    if (failure !== undefined) throw failure;
    return { status: ending.aborted ? 'interrupted' : 'completed', roundsRun };
  }
  if (options.totals !== undefined) await options.emit({ ...base, type: 'totals', time: time(), totals: options.totals() });
  if (failure !== undefined) {
    const reason = describeError(failure).message;
    await options.emit({ ...base, type: 'run-end', time: time(), status: 'failed', reason });
    return { status: 'failed', reason, roundsRun };
  }
  // A target whose every call failed measured nothing: an outage, not a result. All of them failed: the run failed.
  const totals = finished.totals();
  const failed = failedTargets(totals);
  const everyTargetFailed = !ending.aborted && failed.length > 0 && failed.length === ending.finishedTargets.size;
  // An arm that ended in error measured nothing: a run holding one did not complete what it planned.
  const errored = erroredArms(totals);
  const status = ending.aborted ? 'interrupted' : everyTargetFailed || errored !== undefined ? 'failed' : 'completed';
  const reason = ending.aborted
    ? `Interrupted after ${roundsRun} of ${ending.queued} rounds.`
    : everyTargetFailed
      ? failed.map((target) => `${target.target}: ${target.reason}`).join('; ')
      : errored;
  await options.emit({
    ...base,
    type: 'run-end',
    time: time(),
    status,
    ...(reason !== undefined ? { reason } : {}),
    ...(failed.length > 0 ? { failedTargets: failed } : {}),
  });
  return { status, ...(reason !== undefined ? { reason } : {}), roundsRun, ...(failed.length > 0 ? { failedTargets: failed } : {}) };
}
