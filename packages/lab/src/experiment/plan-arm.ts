import type { ArmResult, Generation, ParsedReply, RunEventInput, TaskInfo } from '@holdfast/core/contract';
import { checkActions, manifestOf, observedRuns } from '@holdfast/core/rules';
import { truncatedReply } from '@holdfast/core/reply';
import { isReplyTooLarge } from '../models/index.js';
import type { ModelAdapter } from '../models/index.js';
import { decideWithDeadline } from './approvals.js';
import { blockWhileLanding, errorArm, holdArm, tellArm, warnWhileLanding } from './arm.js';
import type { CommitGate } from './arm.js';
import { armAfterFailedLanding } from './landing-failure.js';
import type { Landing } from './lander.js';
import type { buildMessages } from './prompt.js';
import { judgeReplyHere } from './reply-check/index.js';
import type { ExperimentOptions, RoundSpec } from './runner.js';

/** An arm decided from the checks, with the reply it was decided from (absent when the model call failed). */
interface DecidedArm {
  readonly result: ArmResult;
  readonly parsed?: ParsedReply;
}

/** What a plan-mode arm needs of its run: the options, the cancellation, the prompt and the ids it stamps. */
export interface PlanArmContext {
  readonly options: ExperimentOptions;
  readonly signal: AbortSignal;
  readonly maxTokens: number;
  readonly messagesFor: (task: TaskInfo) => ReturnType<typeof buildMessages>;
  readonly nextApprovalId: () => string;
  readonly now: () => Date;
  readonly tasksById: ReadonlyMap<string, TaskInfo>;
  readonly targetsById: ReadonlyMap<string, { readonly model: Pick<ModelAdapter, 'generate'> }>;
  readonly describeError: (error: unknown) => { code: string; message: string };
}

export interface PlanArms {
  /** The model's reply, read and checked; the held arm's commits wait for the approver. */
  decideArm(round: RoundSpec, arm: 'told' | 'held'): Promise<DecidedArm | undefined>;
  /** The decided arm after its actions landed: how commands really ended is judged by the same checks. */
  judgeLanding(decided: DecidedArm, landing: Landing, files: readonly string[], content: Readonly<Record<string, string>>): Promise<ArmResult>;
}

/** Plan mode's arms for one run: one model reply holds the whole action list, checked before anything lands. */
export function planArms(context: PlanArmContext): PlanArms {
  const { options, signal, maxTokens, messagesFor, nextApprovalId, now, tasksById, targetsById, describeError } = context;
  const time = () => now().toISOString();
  const base = { runId: options.runId };
  const emit = (event: RunEventInput) => options.emit(event);

  async function judgeLanding(decided: DecidedArm, landing: Landing, files: readonly string[], content: Readonly<Record<string, string>>): Promise<ArmResult> {
    if (landing.failure !== undefined) return armAfterFailedLanding(decided.result, { ...landing, failure: landing.failure });
    const observed = observedRuns(landing.result.sandbox?.commands ?? []);
    if (observed.size === 0 || decided.parsed?.kind !== 'actions') return landing.result;
    const checks = await checkActions(decided.parsed.actions, files, options.rulebook, observed, (path) => content[path]);
    if (decided.result.arm === 'held') {
      return landing.halt !== undefined
        ? blockWhileLanding(landing.result, landing.halt.index, landing.halt.check, checks)
        : warnWhileLanding(landing.result, checks, options.rulebook);
    }
    const relabelled = tellArm({
      parsed: decided.parsed,
      checks,
      ...(decided.result.generation !== undefined ? { generation: decided.result.generation } : {}),
    });
    return {
      ...relabelled,
      actions: relabelled.actions.map((outcome, index) => {
        const landed = landing.result.actions[index]?.landed;
        return landed !== undefined ? { ...outcome, landed } : outcome;
      }),
      ...(landing.result.sandbox !== undefined ? { sandbox: landing.result.sandbox } : {}),
    };
  }

  async function decideArm(round: RoundSpec, arm: 'told' | 'held'): Promise<DecidedArm | undefined> {
    const task = tasksById.get(round.task)!;
    const target = targetsById.get(round.target)!;
    let generation: Generation;
    try {
      const reply = await target.model.generate({
        messages: messagesFor(task),
        maxTokens,
        temperature: options.config.temperature,
        signal,
        key: { task: round.task, rep: round.rep, arm },
      });
      generation = {
        raw: reply.text,
        ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
        usage: reply.usage,
        ...(reply.finishReason !== undefined ? { finishReason: reply.finishReason } : {}),
        latencyMs: reply.latencyMs,
        attempts: reply.attempts,
      };
    } catch (error) {
      if (signal.aborted) return undefined;
      if (isReplyTooLarge(error)) return tooLargeArm(arm, error.message);
      return { result: errorArm(arm, describeError(error)) };
    }
    // Only the manifests' text crosses into the judge worker (the dependency kind compares them); the rest is not read.
    const manifests = Object.fromEntries(Object.entries(task.files).filter(([path]) => manifestOf(path) !== undefined));
    // A reply cut at the token limit is not read at all: half a plan would be judged as the whole one; an empty one is named empty.
    const truncated = truncatedReply(generation.finishReason, generation);
    const { parsed, checks } =
      truncated !== undefined
        ? { parsed: truncated, checks: [] }
        : await (options.judgeReply ?? judgeReplyHere)(generation.raw, Object.keys(task.files), options.rulebook, manifests);
    if (arm === 'told') return { result: tellArm({ parsed, checks, generation }), parsed };
    const approver = options.approver;
    const gate: CommitGate | undefined =
      approver === undefined
        ? undefined
        : async (commit, files) => {
            const approvalId = nextApprovalId();
            const deadline = new Date(now().getTime() + options.config.approvalTimeoutMs);
            await emit({
              ...base,
              ...round,
              type: 'approval-request',
              time: time(),
              approvalId,
              arm: 'held',
              message: commit.message,
              files: [...files],
              deadline: deadline.toISOString(),
            });
            const answer = await decideWithDeadline(
              approver,
              { ...round, approvalId, message: commit.message, files, deadline },
              options.config.approvalTimeoutMs,
              signal,
              options.timers,
            );
            await emit({ ...base, ...round, type: 'approval-end', time: time(), approvalId, ...answer });
            return answer;
          };
    const result = await holdArm({ parsed, checks, generation, rulebook: options.rulebook }, gate);
    // A commit refused because the run was cancelled is not the person's refusal: leave the round for --resume.
    if (signal.aborted && result.verdict === 'refused') return undefined;
    return { result, parsed };
  }

  /** A reply cut off at its size cap is the model's output and cannot be read: `unparseable`, too large, never an error. */
  async function tooLargeArm(arm: 'told' | 'held', message: string): Promise<DecidedArm> {
    const parsed: ParsedReply = { kind: 'unparseable', reason: `too large: ${message}` };
    const generation: Generation = { raw: '', usage: {}, finishReason: 'too-large', latencyMs: 0, attempts: 1 };
    const input = { parsed, checks: [], generation };
    return { result: arm === 'told' ? tellArm(input) : await holdArm({ ...input, rulebook: options.rulebook }), parsed };
  }

  return { decideArm, judgeLanding };
}
