import { z } from 'zod';
import { ArmResultSchema } from './arm-result.js';
import { JudgementSchema } from './judgement.js';
import { RulebookSchema } from './rulebook.js';
import { ModeSchema } from './session.js';
import { TotalsSchema } from './totals.js';
import { ArmSchema } from './verdict.js';

/** A target is a model (or agent harness) under test. The key never appears here, only its variable name. */
export const TargetInfoSchema = z.object({
  id: z.string(),
  provider: z.enum([
    'openai-compatible',
    'anthropic',
    'command',
    'claude-code',
    'codex',
    'gemini-cli',
    'qwen-code',
    'opencode',
    'copilot-cli',
    'agent',
    'replay',
  ]),
  model: z.string().optional(),
  baseUrl: z.string().optional(),
});
export type TargetInfo = z.infer<typeof TargetInfoSchema>;

export const TaskInfoSchema = z.object({
  id: z.string(),
  title: z.string(),
  ticket: z.string(),
  /** Rule ids this task tempts. */
  tempts: z.array(z.string()),
  /** The repo state the agent reads: path → content. */
  files: z.record(z.string(), z.string()),
  /**
   * How holdfast judges that the ticket was done: hidden test files (path in the repository →
   * content) the agent never sees, added after the arm, then `command` run confined. It fails on the
   * untouched repository and passes when the ticket is done. Absent: done falls back to the
   * repository's own tests, which may already pass untouched.
   */
  acceptance: z.object({ command: z.string(), files: z.record(z.string(), z.string()) }).optional(),
});
export type TaskInfo = z.infer<typeof TaskInfoSchema>;

export const RunConfigSchema = z.object({
  targets: z.array(z.string()).min(1),
  tasks: z.array(z.string()).min(1),
  reps: z.number().int().positive(),
  concurrency: z.number().int().positive(),
  approve: z.enum(['ask', 'auto', 'deny', 'http']),
  approvalTimeoutMs: z.number().int().positive(),
  temperature: z.number().min(0).max(2),
  sandbox: z.boolean().default(false),
  /** `--unsafe-no-isolation`: the person let model-written commands run without isolation. */
  unsafeNoIsolation: z.boolean().optional(),
  replayOf: z.string().optional(),
  /** `--replies FILE`: the hand-written replies the run answered from, so `--resume` reads the same file. */
  repliesOf: z.string().optional(),
  /** How rounds are played; absent (run files written before modes existed) means `plan`. */
  mode: ModeSchema.optional(),
  /** Loop and agent modes: model turns an arm may take (a target's own cap wins). */
  turnCap: z.number().int().positive().optional(),
  /** Loop and agent modes: wall time an arm may take, in milliseconds. */
  sessionTimeoutMs: z.number().int().positive().optional(),
  /** `--sandbox-max-bytes`: what each arm's work tree may hold (plan --sandbox and loop mode); absent: 256 MB. */
  sandboxMaxBytes: z.number().int().positive().optional(),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

const base = {
  seq: z.number().int().nonnegative(),
  time: z.string(),
  runId: z.string(),
};

const roundKey = {
  roundId: z.string(),
  target: z.string(),
  task: z.string(),
  rep: z.number().int().nonnegative(),
};

/**
 * Run file format versions. 1: plan mode only. 2: adds `config.mode` and session arms (loop and
 * agent modes). 3: adds `warned` (verdict, action status, tool decision, a session's `warned` list), which a run
 * whose rulebook holds a rule at `enforcement: warn` can record. A reader of this version reads all three; a run is
 * written with the lowest version that holds it (plan 1, sessions 2, any mode with a warn rule 3), so an older
 * holdfast refuses by version a file it would misread.
 */
export const RUN_FILE_VERSIONS = [1, 2, 3] as const;

export const RunStartEventSchema = z.object({
  ...base,
  type: z.literal('run-start'),
  version: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  config: RunConfigSchema,
  rulebook: RulebookSchema,
  tasks: z.array(TaskInfoSchema),
  targets: z.array(TargetInfoSchema),
  /** Set when the replies were written by hand for a demo: they are not outputs of a real model. */
  demo: z.string().optional(),
  /**
   * Why this run's figures can differ from another output of the same replies (a replay played without the sandbox
   * its recording had); every view of the run says them beside its figures.
   */
  notes: z.array(z.string()).optional(),
  /** With a sandbox: how model-written commands were confined in this run (bubblewrap, or none when the person allowed it). */
  isolation: z.object({ kind: z.enum(['bubblewrap', 'none']), detail: z.string() }).optional(),
});

export const RoundStartEventSchema = z.object({
  ...base,
  ...roundKey,
  type: z.literal('round-start'),
  /** A queued run (`--queue`): the worker that took the round. */
  worker: z.string().optional(),
  /** A queued run: which try this is; above 1 when a worker died or stalled and the round came back. */
  attempt: z.number().int().positive().optional(),
});

export const ArmEndEventSchema = z.object({
  ...base,
  ...roundKey,
  type: z.literal('arm-end'),
  result: ArmResultSchema,
});

export const ApprovalRequestEventSchema = z.object({
  ...base,
  ...roundKey,
  type: z.literal('approval-request'),
  approvalId: z.string(),
  arm: ArmSchema,
  message: z.string(),
  files: z.array(z.object({ path: z.string(), content: z.string().nullable() })),
  /** ISO time after which no answer counts as a refusal. */
  deadline: z.string(),
});

export const ApprovalEndEventSchema = z.object({
  ...base,
  ...roundKey,
  type: z.literal('approval-end'),
  approvalId: z.string(),
  decision: z.enum(['approved', 'refused']),
  by: z.enum(['person', 'timeout', 'auto', 'cancel', 'no-answer']),
});

/**
 * Judge-graded rules of one arm, after the arm ended (`source: live`) or graded afterwards from the
 * recorded run (`holdfast judge FILE`, `source: after`). Versioned on its own (`judgeVersion`) and
 * optional: a run file without judge rules has none, and every reader of older files still reads
 * them. Advisory: it never changes the arm-end event it follows.
 */
export const JudgeEventSchema = z.object({
  ...base,
  ...roundKey,
  type: z.literal('judge'),
  judgeVersion: z.literal(1),
  arm: ArmSchema,
  source: z.enum(['live', 'after']),
  judgements: z.array(JudgementSchema),
});

export const TotalsEventSchema = z.object({ ...base, type: z.literal('totals'), totals: TotalsSchema });

export const RunEndEventSchema = z.object({
  ...base,
  type: z.literal('run-end'),
  status: z.enum(['completed', 'interrupted', 'failed']),
  reason: z.string().optional(),
  /** Targets every one of whose model calls failed: nothing was measured for them, and the run exits non-zero. */
  failedTargets: z.array(z.object({ target: z.string(), reason: z.string() })).optional(),
});

export const RunEventSchema = z.discriminatedUnion('type', [
  RunStartEventSchema,
  RoundStartEventSchema,
  ArmEndEventSchema,
  ApprovalRequestEventSchema,
  ApprovalEndEventSchema,
  JudgeEventSchema,
  TotalsEventSchema,
  RunEndEventSchema,
]);

export type RunStartEvent = z.infer<typeof RunStartEventSchema>;
export type RoundStartEvent = z.infer<typeof RoundStartEventSchema>;
export type ArmEndEvent = z.infer<typeof ArmEndEventSchema>;
export type ApprovalRequestEvent = z.infer<typeof ApprovalRequestEventSchema>;
export type ApprovalEndEvent = z.infer<typeof ApprovalEndEventSchema>;
export type JudgeEvent = z.infer<typeof JudgeEventSchema>;
export type TotalsEvent = z.infer<typeof TotalsEventSchema>;
export type RunEndEvent = z.infer<typeof RunEndEventSchema>;
export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent['type'];

/** An event before the store stamps it with its sequence number. */
export type RunEventInput = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'seq'> : never) : never;
