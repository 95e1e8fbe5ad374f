import { z } from 'zod';
import { ActionSchema } from './action.js';
import { CappedTextSchema } from './capped-text.js';
import { CheckResultSchema } from './check-result.js';

/**
 * How a round is played. `plan`: one reply holds the whole action list (the seed's protocol).
 * `loop`: a bare model calls tools turn after turn through the provider's native tool calling.
 * `agent`: a real harness (Claude Code, Codex, any CLI agent) works in its own repository.
 */
export const ModeSchema = z.enum(['plan', 'loop', 'agent']);
export type Mode = z.infer<typeof ModeSchema>;

/** The modes whose arms are sessions of many tool calls, recorded as a timeline. */
export const SessionModeSchema = z.enum(['loop', 'agent']);
export type SessionMode = z.infer<typeof SessionModeSchema>;

/**
 * What became of one tool call. `applied`: it ran (in the told arm, violations included).
 * `blocked`: the held gate refused it before it ran. `observed`: the agent told arm's hook judged it
 * and let it through (never blocks). `reverted`: it ran, and a later check put its change back.
 * `allowed-by-person`: a rule refused it and a person let it through. `warned` (held arm): it broke only rules at
 * `enforcement: warn`, so it ran and the agent was told the rule.
 */
export const ToolDecisionSchema = z.enum(['applied', 'blocked', 'observed', 'reverted', 'allowed-by-person', 'warned']);
export type ToolDecision = z.infer<typeof ToolDecisionSchema>;

/** One tool call of a session, in the order the agent made them. */
export const ToolCallRecordSchema = z.object({
  /** Position in the session's timeline, from 0. */
  index: z.number().int().nonnegative(),
  /** The model turn that made the call, from 1. */
  turn: z.number().int().positive(),
  tool: z.string(),
  /** The provider's (or harness's) id for the call, if it has one. */
  callId: z.string().optional(),
  /** The call's input, as JSON, keys and secrets redacted, capped. */
  input: CappedTextSchema,
  /** What holdfast read the call as: the writes, deletes, runs and commits it would make. Empty for reads. */
  actions: z.array(ActionSchema).default([]),
  /** Every check that failed on this call, whatever was done about it. */
  checks: z.array(CheckResultSchema).default([]),
  decision: ToolDecisionSchema,
  /** The rule behind a `blocked`, `reverted`, `allowed-by-person` or `warned` decision. */
  rule: z.string().optional(),
  /** Why it was blocked or reverted, or what it did, in one sentence. */
  detail: z.string().optional(),
  /** The tool's answer to the agent (a deny reason, a file, a command's output), capped. */
  output: CappedTextSchema.optional(),
  /** The tool answered with an error (a deny, a missing file, a command off the allowlist). */
  isError: z.boolean().default(false),
  /** For a command: its exit code, when it ran. */
  exitCode: z.number().int().optional(),
  /** For a commit: the commit it made. */
  commit: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/**
 * Why a session ended: the agent stopped on its own, or a limit or a failure stopped it. `cut-off`:
 * the provider cut the last reply at its token limit (finish reason `length` / `max_tokens`), so the
 * model did not say it was done. `too-large`: a reply passed its size cap (`maxReplyBytes`) and was cut
 * off unread.
 */
export const StopReasonSchema = z.enum(['done', 'turn-cap', 'timeout', 'error', 'cut-off', 'too-large', 'sandbox-cap']);
export type StopReason = z.infer<typeof StopReasonSchema>;

/**
 * A violation found in what is really there at the end: the work tree against the base commit, or
 * a commit made during the session. `commit` is absent for a change left in the work tree.
 */
export const LandedViolationSchema = z.object({
  rule: z.string(),
  name: z.string(),
  path: z.string().optional(),
  commit: z.string().optional(),
  detail: z.string(),
});
export type LandedViolation = z.infer<typeof LandedViolationSchema>;

/** Whether the task got done: the repository's own test command, run by holdfast after the session. */
export const TaskCheckSchema = z.object({
  command: z.string(),
  passed: z.boolean(),
  exitCode: z.number().int().optional(),
  /** Why it did not run or how it ended (timeout, signal, could not start). */
  detail: z.string().optional(),
  /** The end of its output. */
  outputTail: z.string().default(''),
});
export type TaskCheck = z.infer<typeof TaskCheckSchema>;

export const SessionUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  cacheReadTokens: z.number().int().nonnegative().optional(),
});
export type SessionUsage = z.infer<typeof SessionUsageSchema>;

/**
 * A loop or agent arm: the tool-call timeline and what it left behind. The arm's verdict is
 * decided from `landed` (judged on the final work tree and every commit with the same rulebook,
 * whatever tool made the change), the timeline's blocks and `taskDone`.
 */
export const SessionSchema = z.object({
  mode: SessionModeSchema,
  calls: z.array(ToolCallRecordSchema).default([]),
  /** Model turns taken (for a harness: as it reports them). */
  turns: z.number().int().nonnegative(),
  stop: z.object({ reason: StopReasonSchema, detail: z.string().optional() }),
  /** Tool calls of one turn beyond the turn cap: answered with an error, never run, not in `calls`. */
  callsOverCap: z.number().int().nonnegative().optional(),
  usage: SessionUsageSchema.default({}),
  /** In US dollars, where the provider or harness reports it. */
  costUsd: z.number().nonnegative().optional(),
  wallMs: z.number().nonnegative(),
  landed: z.array(LandedViolationSchema).default([]),
  /**
   * Held arm: violations of rules at `enforcement: warn` found the same way as `landed` (the final tree, every
   * commit). They were let through on purpose, so they are kept here, out of `landed`; absent when there are none.
   */
  warned: z.array(LandedViolationSchema).optional(),
  taskDone: TaskCheckSchema.optional(),
  /** The harness that played the arm (agent mode), e.g. `claude-code 2.1.197`. */
  harness: z.string().optional(),
});
export type Session = z.infer<typeof SessionSchema>;
