import { z } from 'zod';
import { RulebookSchema } from './rulebook.js';
import { RunEventSchema, TargetInfoSchema } from './events.js';
import { PressureRecordSchema, PressureVariantSchema, PressureVerdictSchema, ResponseOriginSchema } from './pressure.js';
import { RateSchema } from './totals.js';
import { ArmSchema } from './verdict.js';

/**
 * The web API, one schema per endpoint, shared by the server (validation) and the browser
 * (typed fetches). Keys never appear: a target says only whether its key variable is set.
 */

export const ApiTargetSchema = TargetInfoSchema.extend({
  /** Name of the environment variable that holds the key, if the target needs one. */
  keyEnv: z.string().optional(),
  hasKey: z.boolean(),
  reachable: z.boolean(),
  detail: z.string(),
  /** The modes this target can play: plan and loop for models with tool calling, agent for harnesses. */
  modes: z.array(z.enum(['plan', 'loop', 'agent'])).optional(),
  /** Why it cannot run now, with the fix, in one short line ("no key: set OPENAI_API_KEY in .env"); absent when it can. */
  problem: z.string().optional(),
  /** Agent harnesses: the turn cap and time per arm from the config (what a run's settings are capped by). */
  maxTurns: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().optional(),
});
export type ApiTarget = z.infer<typeof ApiTargetSchema>;

export const ApiTaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  ticket: z.string(),
  tempts: z.array(z.string()),
  files: z.number().int().nonnegative(),
});
export type ApiTask = z.infer<typeof ApiTaskSchema>;

export const ApiRunFileSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  mtime: z.string(),
  runId: z.string().optional(),
  status: z.string().optional(),
  demo: z.string().optional(),
  rounds: z.number().int().nonnegative().optional(),
  /** How its rounds were played and how many repetitions it recorded: what a replay of it may ask for. */
  mode: z.enum(['plan', 'loop', 'agent']).optional(),
  reps: z.number().int().positive().optional(),
  tasks: z.array(z.string()).optional(),
  targets: z.array(z.string()).optional(),
  /** Set when the file is not served (a link, a FIFO, a device, a socket): why. */
  refused: z.string().optional(),
});
export type ApiRunFile = z.infer<typeof ApiRunFileSchema>;

/** GET /api/config */
export const ConfigResponseSchema = z.object({
  targets: z.array(ApiTargetSchema),
  tasks: z.array(ApiTaskSchema),
  rulebook: RulebookSchema,
  /** The rulebook rendered as the told arm's AGENTS.md prose. */
  rulebookProse: z.string(),
  /** Saved run file opened on first load (the shipped example), if any. */
  defaultRun: z.string().optional(),
});
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>;

/** POST /api/run. Either live targets, or `replay` (a saved run's name) which needs no key. */
export const RunSelectionSchema = z.strictObject({
  targets: z.array(z.string().min(1)).min(1).max(16).optional(),
  tasks: z.union([z.literal('all'), z.array(z.string().min(1)).min(1)]).default('all'),
  reps: z.number().int().min(1).max(5).default(1),
  concurrency: z.number().int().min(1).max(16).default(3),
  humanGate: z.boolean().default(false),
  /** Land every arm in a throwaway git repository (`holdfast run --sandbox`). */
  sandbox: z.boolean().default(false),
  /** How rounds are played (`holdfast run --mode`); loop needs live targets with native tool calling. */
  mode: z.enum(['plan', 'loop', 'agent']).default('plan'),
  /** Loop and agent modes: model turns per arm (`--turn-cap`; a target's own lower cap wins). */
  turnCap: z.number().int().min(1).max(1000).optional(),
  /** Loop and agent modes: seconds per arm (`--session-timeout`; a target's own lower timeout wins in agent mode). */
  sessionTimeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  /** Seconds before an unanswered approval is refused. */
  approvalTimeoutSeconds: z.number().int().min(1).max(3600).default(90),
  replay: z.string().min(1).optional(),
});
export type RunSelection = z.infer<typeof RunSelectionSchema>;

export const RunStartedResponseSchema = z.object({ runId: z.string(), name: z.string() });
export type RunStartedResponse = z.infer<typeof RunStartedResponseSchema>;

/** POST /api/run/:id/approvals/:approvalId, with the run's token in the `x-holdfast-token` header. */
export const ApprovalAnswerSchema = z.strictObject({ approve: z.boolean() });
export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>;

/** GET /api/runs */
export const RunListResponseSchema = z.object({ runs: z.array(ApiRunFileSchema) });
export type RunListResponse = z.infer<typeof RunListResponseSchema>;

/**
 * How much of a saved run GET /api/runs/:name sends (`?view=`). `full` (the default) is the file as
 * written. `lean` is every event, with arm-end results stripped of their bulk: `generation.raw` is
 * `''`, `reasoning` and `generation.reasoning` are absent, each write's `content` is `''`, and
 * `sandbox.diff.text` and command `output.text` are `''`, and so are a session's call `input.text`,
 * `output.text`, written contents and `taskDone.outputTail`. Verdicts, reasons, action statuses, rules,
 * details, checks, usage and latency are untouched, so totals computed from it equal the full run's.
 * A round's full events come from GET /api/runs/:name/rounds/:roundId.
 */
export const RunViewSchema = z.enum(['full', 'lean', 'summary']);
export type RunView = z.infer<typeof RunViewSchema>;

/** GET /api/runs/:name with `Accept: application/json` (the default answer is the JSONL itself). */
export const SavedRunResponseSchema = z.object({
  name: z.string(),
  view: RunViewSchema.optional(),
  events: z.array(RunEventSchema),
  problems: z.array(z.object({ line: z.number().int().positive(), kind: z.string(), message: z.string() })),
});
export type SavedRunResponse = z.infer<typeof SavedRunResponseSchema>;

/** GET /api/runs/:name/rounds/:roundId (roundId URL-encoded): every event of that round, in full. */
export const RoundEventsResponseSchema = z.object({ events: z.array(RunEventSchema) });
export type RoundEventsResponse = z.infer<typeof RoundEventsResponseSchema>;

/** One pressure results file in `<runs>/pressure/` (written by `pressure report --out` or `pressure run --out`). */
export const ApiPressureFileSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  mtime: z.string(),
  /** Lines that are pressure records (unreadable lines are not counted). */
  records: z.number().int().nonnegative(),
  /** Of those, how many came from each origin: `written` replies were written by hand, not by a model. */
  origins: z.partialRecord(ResponseOriginSchema, z.number().int().nonnegative()),
});
export type ApiPressureFile = z.infer<typeof ApiPressureFileSchema>;

/** GET /api/pressure: newest first. Empty when there is no pressure folder. */
export const PressureListResponseSchema = z.object({ files: z.array(ApiPressureFileSchema) });
export type PressureListResponse = z.infer<typeof PressureListResponseSchema>;

/** Pass rate of one rule for one target and variant, with its Wilson 95% interval and the verdict mix. */
export const PressureSummaryRowSchema = z.object({
  rule: z.string(),
  /** Absent when the replies name no target. */
  target: z.string().optional(),
  variant: PressureVariantSchema,
  pass: RateSchema,
  verdicts: z.partialRecord(PressureVerdictSchema, z.number().int().nonnegative()),
});
export type PressureSummaryRowBody = z.infer<typeof PressureSummaryRowSchema>;

/** GET /api/pressure/:name: the summary rows (`summarizePressureRecords`), every record, and unreadable lines. */
export const PressureFileResponseSchema = z.object({
  name: z.string(),
  rows: z.array(PressureSummaryRowSchema),
  records: z.array(PressureRecordSchema),
  problems: z.array(z.object({ line: z.number().int().positive(), kind: z.string(), message: z.string() })),
});
export type PressureFileResponse = z.infer<typeof PressureFileResponseSchema>;

/**
 * The SSE stream of a run sends every RunEvent as `event: run` with `id: <seq>`, plus one
 * `event: session` first carrying the per-run approval token (only the run's own stream has it),
 * and `: heartbeat` comments.
 */
export const SessionMessageSchema = z.object({ runId: z.string(), token: z.string(), live: z.boolean() });
export type SessionMessage = z.infer<typeof SessionMessageSchema>;

/** One commit waiting for a person in a live run (`GET /api/live`, `event: live` of `/api/live/stream`). */
export const LiveApprovalSchema = z.object({
  approvalId: z.string(),
  roundId: z.string(),
  target: z.string(),
  task: z.string(),
  rep: z.number().int().nonnegative(),
  arm: ArmSchema,
  message: z.string(),
  deadline: z.string(),
});
export type LiveApproval = z.infer<typeof LiveApprovalSchema>;

/**
 * One worker of a queued run (`serve --queue`), as its coordinator sees it: the rounds it is playing
 * now, the rounds of this run it finished, and its heartbeat. `live` heard from within three
 * heartbeats; `stale` silent longer (killed, frozen, cut off: its rounds go back to the queue after
 * the stall timeout); `gone` left the queue (stopped cleanly) after playing rounds of this run.
 */
export const LiveWorkerSchema = z.object({
  id: z.string(),
  host: z.string().optional(),
  status: z.enum(['live', 'stale', 'gone']),
  /** ISO time of its last heartbeat, when the registry has one. */
  seenAt: z.string().optional(),
  playing: z.array(z.string()),
  done: z.number().int().nonnegative(),
});
export type LiveWorker = z.infer<typeof LiveWorkerSchema>;

/** A run this server process started: whether it still runs, its rounds so far and its waiting commits. */
export const LiveRunSummarySchema = z.object({
  runId: z.string(),
  /** The run file's name in the runs folder. */
  name: z.string(),
  running: z.boolean(),
  rounds: z.number().int().nonnegative(),
  pending: z.array(LiveApprovalSchema),
  /** A queued run only: its workers, by id. */
  workers: z.array(LiveWorkerSchema).optional(),
});
export type LiveRunSummary = z.infer<typeof LiveRunSummarySchema>;

/** GET /api/live, and each `event: live` message of GET /api/live/stream: every run of this process, newest first. */
export const LiveRunsResponseSchema = z.object({ runs: z.array(LiveRunSummarySchema) });
export type LiveRunsResponse = z.infer<typeof LiveRunsResponseSchema>;

export const ApiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const APPROVAL_TOKEN_HEADER = 'x-holdfast-token';
