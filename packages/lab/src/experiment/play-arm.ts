import type { ArmResult, Recheck, TaskInfo } from '@holdfast/core/contract';
import { checkActions, enforcementOf } from '@holdfast/core/rules';
import { DEFAULT_AGENT_MAX_TURNS, DEFAULT_AGENT_TIMEOUT_MS } from '../models/index.js';
import type { AgentRounds } from './agent/index.js';
import { errorArm, noOpWhenNothingLanded } from './arm.js';
import type { Lander } from './lander.js';
import type { LoopWorkspaces } from './loop/loop-workspace.js';
import type { PlanArms } from './plan-arm.js';
import type { ExperimentOptions, ExperimentTarget, RoundSpec } from './runner.js';

/** What an arm of any mode needs of its run: the options, the cancellation, the clock and the tasks and targets by id. */
export interface ArmRunContext {
  readonly options: ExperimentOptions;
  readonly signal: AbortSignal;
  readonly now: () => Date;
  readonly tasksById: ReadonlyMap<string, TaskInfo>;
  readonly targetsById: ReadonlyMap<string, ExperimentTarget>;
  readonly agentsMd: string;
  readonly maxTokens: number;
  /** Loop mode: the task whose repository carries the rulebook as its AGENTS.md. */
  readonly loopTaskFor: (task: TaskInfo) => TaskInfo;
  readonly describeError: (error: unknown) => { code: string; message: string };
}

/** What the run's mode opened before its first event; at most one is present. */
export interface RunModes {
  readonly agentRounds?: AgentRounds;
  readonly loop?: LoopWorkspaces;
  readonly lander?: Lander;
}

/** Plays one arm of a round; `undefined` when the run was cancelled and the round is left for `--resume`. */
export type PlayArm = (round: RoundSpec, arm: 'told' | 'held') => Promise<ArmResult | undefined>;

/** The arm the run's mode plays: an agent harness, a loop-mode conversation, or a plan-mode reply (landed when a lander is open). */
export function armPlayer(context: ArmRunContext, modes: RunModes, plan: PlanArms): PlayArm {
  return async (round, arm) => {
    if (modes.agentRounds !== undefined) return playAgentArm(context, modes.agentRounds, round, arm);
    if (modes.loop !== undefined) return playLoopArm(context, modes.loop, round, arm);
    return playPlanArm(context, plan, modes.lander, round, arm);
  };
}

/**
 * The verdict is decided from the checks first; only then does the sandbox land what the result
 * says was applied. The sandbox adds evidence (commits, the diff, real exit codes); the one thing
 * it feeds back is how commands really ended, which the same pure checks then judge (R6: a test
 * run counts only when it passed). A file-system error ends the arm as `error`, not the run.
 */
async function playPlanArm(
  context: ArmRunContext,
  plan: PlanArms,
  lander: Lander | undefined,
  round: RoundSpec,
  arm: 'told' | 'held',
): Promise<ArmResult | undefined> {
  const { options, signal } = context;
  const decided = await plan.decideArm(round, arm);
  if (decided === undefined || lander === undefined) return decided?.result;
  const task = context.tasksById.get(round.task)!;
  const files = Object.keys(task.files);
  const actions = decided.parsed?.kind === 'actions' ? decided.parsed.actions : [];
  const recheck: Recheck | undefined =
    arm === 'held'
      ? async (index, observed) =>
          // A rule at warn never stops the landing: its violation lands, counted as warned.
          (await checkActions(actions, files, options.rulebook, observed, (path) => task.files[path])).find(
            (check) => check.actionIndex === index && !check.ok && enforcementOf(options.rulebook, check.rule) === 'block',
          )
      : undefined;
  const landing = await lander.land({ task, roundId: round.roundId, arm, result: decided.result, signal, ...(recheck !== undefined ? { recheck } : {}) });
  if (signal.aborted) return undefined;
  return noOpWhenNothingLanded(await plan.judgeLanding(decided, landing, files, task.files));
}

/** A harness works on the ticket in its own repository; a cancelled arm is left for `--resume`. */
async function playAgentArm(context: ArmRunContext, rounds: AgentRounds, round: RoundSpec, arm: 'told' | 'held'): Promise<ArmResult | undefined> {
  const { options, signal, describeError } = context;
  const harness = context.targetsById.get(round.target)!.harness!;
  try {
    const result = await rounds.run({
      roundId: round.roundId,
      task: context.tasksById.get(round.task)!,
      arm,
      harness,
      maxTurns: options.config.turnCap ?? DEFAULT_AGENT_MAX_TURNS,
      timeoutMs: options.config.sessionTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
      signal,
    });
    return signal.aborted ? undefined : result;
  } catch (error) {
    // A file-system or git failure ends this arm as an error with the reason; the run goes on.
    if (signal.aborted) return undefined;
    return { ...errorArm(arm, describeError(error)), mode: 'agent', reason: `The agent arm could not be played: ${describeError(error).message}` };
  }
}

/**
 * A loop-mode arm in its own repository. A failure of the machinery (git, the file system) ends the
 * arm as an error and the run goes on; a cancelled run leaves the round for --resume.
 */
async function playLoopArm(context: ArmRunContext, workspaces: LoopWorkspaces, round: RoundSpec, arm: 'told' | 'held'): Promise<ArmResult | undefined> {
  const { options, signal, now, describeError, loopTaskFor } = context;
  const target = context.targetsById.get(round.target)!;
  const converse = target.model.converse;
  if (converse === undefined) {
    return { ...errorArm(arm, { code: 'E_MODE', message: `target ${round.target} has no native tool calling, which loop mode needs.` }), mode: 'loop' };
  }
  const { runLoopArm } = await import('./loop/loop-arm.js');
  const turnCap = target.turnCap ?? options.config.turnCap;
  let opened: Awaited<ReturnType<LoopWorkspaces['open']>> | undefined;
  try {
    opened = await workspaces.open(loopTaskFor(context.tasksById.get(round.task)!), `${round.roundId}-${arm}`);
    return await runLoopArm({
      arm,
      task: loopTaskFor(context.tasksById.get(round.task)!),
      agentsMd: context.agentsMd,
      rulebook: options.rulebook,
      model: { converse: (request) => converse.call(target.model, request) },
      workspace: opened.workspace,
      ...(turnCap !== undefined ? { turnCap } : {}),
      ...(options.config.sessionTimeoutMs !== undefined ? { timeoutMs: options.config.sessionTimeoutMs } : {}),
      maxTokens: context.maxTokens,
      temperature: options.config.temperature,
      signal,
      now: () => now().getTime(),
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
    });
  } catch (error) {
    if (signal.aborted) return undefined;
    return { ...errorArm(arm, describeError(error)), reason: `The arm's repository failed: ${describeError(error).message}`, mode: 'loop' };
  } finally {
    opened?.release();
  }
}
