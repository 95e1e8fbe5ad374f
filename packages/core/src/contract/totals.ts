import { z } from 'zod';
import { ArmSchema } from './verdict.js';

/** A proportion with its n and a Wilson 95% interval. Rates are never shown without these. */
export const RateSchema = z.object({
  count: z.number().int().nonnegative(),
  n: z.number().int().nonnegative(),
  rate: z.number().min(0).max(1).nullable(),
  low: z.number().min(0).max(1).nullable(),
  high: z.number().min(0).max(1).nullable(),
});
export type Rate = z.infer<typeof RateSchema>;

export const RuleTotalsSchema = z.object({
  rule: z.string(),
  name: z.string(),
  attempts: z.number().int().nonnegative(),
  landed: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  /** Held arm: violations of this rule at `enforcement: warn` let through with a warning; absent in older files. */
  warned: z.number().int().nonnegative().default(0),
});
export type RuleTotals = z.infer<typeof RuleTotalsSchema>;

/** Totals of one arm of one target. The two arms are separate generations: never averaged. */
export const ArmTotalsSchema = z.object({
  target: z.string(),
  arm: ArmSchema,
  rounds: z.number().int().nonnegative(),
  roundsWithAttempt: RateSchema,
  roundsLanded: RateSchema,
  clean: RateSchema,
  attempts: z.number().int().nonnegative(),
  landed: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  /**
   * Held arm: violations of rules at `enforcement: warn` let through with a warning (the action landed, the model
   * was told), one per rule per action or tool call; counted apart from `landed` and `blocked`. 0 in the told arm.
   */
  warned: z.number().int().nonnegative().default(0),
  refused: z.number().int().nonnegative(),
  declined: z.number().int().nonnegative(),
  unparseable: z.number().int().nonnegative(),
  /** Of the unparseable arms, those whose reply held no text at all (named "empty" in their reason). */
  empty: z.number().int().nonnegative().default(0),
  errors: z.number().int().nonnegative(),
  /** Why the error rounds failed: one row per distinct code and message, with how many rounds. */
  errorReasons: z.array(z.object({ code: z.string(), message: z.string(), rounds: z.number().int().positive() })).default([]),
  perRule: z.array(RuleTotalsSchema),
  /** Loop and agent modes: arms played as sessions (0 in plan mode; the fields below stay 0). */
  sessions: z.number().int().nonnegative().default(0),
  /** Held sessions that were blocked, then finished cleanly with the task done. */
  recovered: z.number().int().nonnegative().default(0),
  /** Held sessions where a violation landed despite the gate: gate leaks, counted on their own. */
  evaded: z.number().int().nonnegative().default(0),
  /** Arms whose task check passed at the end; n = arms where done was judged (never assumed where it was not). */
  taskDone: RateSchema.default({ count: 0, n: 0, rate: null, low: null, high: null }),
  /** Arms that changed nothing (verdict `no-op`): not clean, not done. */
  noOp: z.number().int().nonnegative().default(0),
  /** Arms whose sandbox passed its size cap before a violation decided them (verdict `over-cap`): in n, a failure. */
  overCap: z.number().int().nonnegative().default(0),
  /** The success figure: arms clean (or, held, recovered) with the task done; n = arms where done was judged. */
  cleanAndDone: RateSchema.default({ count: 0, n: 0, rate: null, low: null, high: null }),
  /** Model turns over all sessions. */
  turns: z.number().int().nonnegative().default(0),
  inputTokens: z.number().int().nonnegative().default(0),
  outputTokens: z.number().int().nonnegative().default(0),
  /** Reported cost in US dollars over the sessions that report one. */
  costUsd: z.number().nonnegative().default(0),
  /** pass^k of clean rounds per task, for k up to the repetitions run (at most 16). */
  passK: z.array(z.object({ task: z.string(), k: z.number().int().positive(), value: z.number().min(0).max(1) })),
});
export type ArmTotals = z.infer<typeof ArmTotalsSchema>;

export const TotalsSchema = z.object({ arms: z.array(ArmTotalsSchema) });
export type Totals = z.infer<typeof TotalsSchema>;
