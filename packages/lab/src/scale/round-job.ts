import { z } from 'zod';
import {
  ApprovalEndEventSchema,
  ApprovalRequestEventSchema,
  ArmResultSchema,
  HoldfastError,
  JudgeEventSchema,
  RoundStartEventSchema,
  RulebookSchema,
  RunConfigSchema,
  TaskInfoSchema,
  jsonOrUndefined,
} from '@holdfast/core/contract';

/**
 * The run options beyond its config that change how a round is played, so a worker plays it as the
 * in-process run would. Folders are paths on the worker's machine (the same path everywhere, or a
 * shared mount): `--keep-sandboxes` keeps each arm's repository there, `--node-modules` is the
 * installed node_modules linked into every sandbox. `judge` is false with `--no-judge`; otherwise the
 * worker grades the rulebook's judge rules after each arm with its own judge targets and keys.
 */
const RoundPlaySchema = z.object({
  keepDir: z.string().optional(),
  nodeModules: z.string().optional(),
  judge: z.boolean(),
});
export type RoundPlay = z.infer<typeof RoundPlaySchema>;

/**
 * What crosses Redis between the coordinator and the workers, each checked on arrival: a job is one
 * round with everything a worker needs to play it except the target itself (the worker's own
 * definition and key); its progress is the round's live events; its return value both arms.
 */
export const RoundJobSchema = z.object({
  runId: z.string(),
  round: z.object({ roundId: z.string(), target: z.string(), task: z.string(), rep: z.number().int().nonnegative() }),
  config: RunConfigSchema,
  rulebook: RulebookSchema,
  task: TaskInfoSchema,
  play: RoundPlaySchema,
});
export type RoundJob = z.infer<typeof RoundJobSchema>;

const LiveEventSchema = z.discriminatedUnion('type', [
  RoundStartEventSchema.omit({ seq: true }),
  ApprovalRequestEventSchema.omit({ seq: true }),
  ApprovalEndEventSchema.omit({ seq: true }),
]);

/**
 * Both arms, and every other event of the round in the order the runner emitted it (its start, its
 * approvals, its judge grades): a coordinator that was down while the round was played writes from
 * here what it missed, so the run file holds each round's events as an in-process run writes them.
 */
export const RoundOutcomeSchema = z.object({
  worker: z.string(),
  attempt: z.number().int().positive(),
  told: ArmResultSchema,
  held: ArmResultSchema,
  events: z.array(z.discriminatedUnion('type', [...LiveEventSchema.options, JudgeEventSchema.omit({ seq: true })])),
});
export type RoundOutcome = z.infer<typeof RoundOutcomeSchema>;

/** A round's live event as the worker's runner emitted it; the coordinator stamps seq and writes it. */
export const RoundProgressSchema = z.object({
  worker: z.string(),
  attempt: z.number().int().positive(),
  event: LiveEventSchema,
});
export type RoundProgress = z.infer<typeof RoundProgressSchema>;

export class QueueMessageError extends HoldfastError {}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`)
    .join('; ');
}

function parseWith<T>(schema: z.ZodType<T>, what: string, value: unknown): T {
  const checked = schema.safeParse(value);
  if (!checked.success) {
    throw new QueueMessageError(
      'E_QUEUE_MESSAGE',
      `${what} from the queue does not match this holdfast's format (${describe(checked.error)}); run the same holdfast version on the coordinator and every worker.`,
    );
  }
  return checked.data;
}

export function safeParseRoundProgress(value: unknown): { success: true; data: RoundProgress } | { success: false } {
  const checked = RoundProgressSchema.safeParse(value);
  return checked.success ? { success: true, data: checked.data } : { success: false };
}

/**
 * A round's job log: every live event of every try, each logged by its worker before it is sent as
 * progress. Progress keeps only the latest value and reaches only a coordinator that is listening;
 * the log stays with the job, so a try whose worker died while no coordinator ran still shows.
 * A row this holdfast cannot read is left out, as a progress message would be.
 */
export function parseTryLog(rows: readonly string[]): RoundProgress[] {
  return rows.flatMap((row) => {
    const checked = RoundProgressSchema.safeParse(jsonOrUndefined(row));
    return checked.success ? [checked.data] : [];
  });
}

export const parseRoundJob = (value: unknown): RoundJob => parseWith(RoundJobSchema, 'a round job', value);
export const parseRoundOutcome = (value: unknown): RoundOutcome => parseWith(RoundOutcomeSchema, 'a round result', value);
