import { z } from 'zod';
import { ActionSchema } from './action.js';
import { CappedTextSchema } from './capped-text.js';
import { CheckResultSchema } from './check-result.js';
import { ParseMethodSchema } from './reply.js';
import { ModeSchema, SessionSchema, TaskCheckSchema } from './session.js';
import { ArmSchema, ActionStatusSchema, VerdictSchema } from './verdict.js';

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * What an applied action did in the sandbox. `done`: the file was written or deleted, the commit
 * made, the command executed (whatever its exit code). `refused`: the sandbox would not do it (a
 * path that escapes the repository, a command off the allowlist). `failed`: it was tried and broke.
 */
export const LandedSchema = z.object({
  state: z.enum(['done', 'refused', 'failed']),
  detail: z.string().optional(),
  /** The commit this action made, for `commit` actions. */
  commit: z.string().optional(),
});
export type Landed = z.infer<typeof LandedSchema>;

export const ActionOutcomeSchema = z.object({
  index: z.number().int().nonnegative(),
  action: ActionSchema,
  status: ActionStatusSchema,
  /** The rule that blocked it (held arm), when status is `blocked`. */
  rule: z.string().optional(),
  /** Why it was blocked, skipped or refused; for applied actions in the told arm, the violation that landed. */
  detail: z.string().optional(),
  /** Rules this action violated, whatever the arm did about it. */
  violations: z.array(z.string()).default([]),
  /** With `--sandbox`: what really happened to this applied action in the arm's git repository. */
  landed: LandedSchema.optional(),
});
export type ActionOutcome = z.infer<typeof ActionOutcomeSchema>;

/**
 * How much of a reply (and of its reasoning) a run file keeps: the default reply cap, so under it
 * every reply is kept whole; a reply a raised cap let through is kept up to here, its size recorded.
 */
export const STORED_REPLY_BYTES = 1_000_000;

/** The model call behind an arm: what was sent back, how long it took. Never a key. */
export const GenerationSchema = z.object({
  raw: z.string(),
  /**
   * In a run file only: this arm's reply is the same text as the named arm's of the same round,
   * stored there once (`raw` is empty here). Readers of the store restore it; absent in older files.
   */
  rawSameAs: ArmSchema.optional(),
  /**
   * In a run file only: `raw` holds just the reply's first STORED_REPLY_BYTES, and this is the
   * whole reply's size in bytes. The arm was judged on the whole reply; a reply that large is not kept.
   */
  rawBytes: z.number().int().nonnegative().optional(),
  reasoning: z.string().optional(),
  /** Like `rawBytes`, for `reasoning`. */
  reasoningBytes: z.number().int().nonnegative().optional(),
  usage: UsageSchema.default({}),
  finishReason: z.string().optional(),
  latencyMs: z.number().nonnegative(),
  attempts: z.number().int().positive().default(1),
});
export type Generation = z.infer<typeof GenerationSchema>;

export { CappedTextSchema } from './capped-text.js';
export type { CappedText } from './capped-text.js';

export const SandboxCommandSchema = z.object({
  /** Index of the `run` action in the arm's action list. */
  index: z.number().int().nonnegative(),
  cmd: z.string(),
  executed: z.boolean(),
  /** Why it was not executed (off the allowlist, shell syntax), or how it ended. */
  reason: z.string().optional(),
  exitCode: z.number().int().optional(),
  signal: z.string().optional(),
  timedOut: z.boolean().optional(),
  /** stdout and stderr interleaved as they arrived, capped to their tail. */
  output: CappedTextSchema.optional(),
  durationMs: z.number().nonnegative().optional(),
});
export type SandboxCommand = z.infer<typeof SandboxCommandSchema>;

/**
 * The arm's disposable git repository (`holdfast run --sandbox`): the task's files as the base
 * commit, then what the arm applied, in order. `diff` is everything that landed in the tree
 * (committed or not) against the base commit: the part a reviewer reads.
 */
export const SandboxResultSchema = z.object({
  /** How commands were confined: bubblewrap (no network, read-only system) or none (the machine lacks it). */
  isolation: z.enum(['bubblewrap', 'none']),
  isolationDetail: z.string().optional(),
  baseCommit: z.string(),
  commits: z.array(z.object({ index: z.number().int().nonnegative(), hash: z.string(), message: z.string() })).default([]),
  diff: CappedTextSchema,
  /** Paths the diff touches, in the diff's order. */
  changedPaths: z.array(z.string()).default([]),
  commands: z.array(SandboxCommandSchema).default([]),
  refusedWrites: z.array(z.object({ index: z.number().int().nonnegative(), path: z.string(), reason: z.string() })).default([]),
  /** Where the repository was kept (`--keep-sandboxes DIR`); absent when it was removed. */
  keptAt: z.string().optional(),
  /** Plan mode with `--sandbox`: the task's acceptance check, run by holdfast after the arm landed. */
  taskDone: TaskCheckSchema.optional(),
});
export type SandboxResult = z.infer<typeof SandboxResultSchema>;

export const ArmResultSchema = z.object({
  arm: ArmSchema,
  verdict: VerdictSchema,
  /** One sentence: why this verdict (the blocking rule's detail, the decline reason, the error). */
  reason: z.string(),
  parse: z
    .object({
      kind: z.enum(['actions', 'declined', 'unparseable']),
      method: ParseMethodSchema.optional(),
      reason: z.string().optional(),
    })
    .optional(),
  /** The model's free-text reasoning from the reply, if any. */
  reasoning: z.string().optional(),
  actions: z.array(ActionOutcomeSchema).default([]),
  checks: z.array(CheckResultSchema).default([]),
  generation: GenerationSchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** With `--sandbox`, and in loop and agent modes: the real repository the arm's changes landed in. */
  sandbox: SandboxResultSchema.optional(),
  /** How the round was played; absent in run files written before modes existed, which are `plan`. */
  mode: ModeSchema.optional(),
  /** Loop and agent modes: the tool-call timeline and what landed. */
  session: SessionSchema.optional(),
});
export type ArmResult = z.infer<typeof ArmResultSchema>;
