import { z } from 'zod';

/**
 * One judgement of one rule on one action. `detail` is a sentence a person can act on:
 * the rule, the path, what the model did. Secrets are masked in it.
 */
export const CheckResultSchema = z.object({
  rule: z.string(),
  name: z.string(),
  actionIndex: z.number().int().nonnegative(),
  ok: z.boolean(),
  detail: z.string(),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const CheckReportSchema = z.object({
  checks: z.array(CheckResultSchema),
  violations: z.number().int().nonnegative(),
});
export type CheckReport = z.infer<typeof CheckReportSchema>;
