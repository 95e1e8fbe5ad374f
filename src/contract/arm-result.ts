import { z } from 'zod';
import { ActionSchema } from './action.js';
import { CheckResultSchema } from './check-result.js';
import { ParseMethodSchema } from './reply.js';
import { ArmSchema, ActionStatusSchema, VerdictSchema } from './verdict.js';

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

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
});
export type ActionOutcome = z.infer<typeof ActionOutcomeSchema>;

/** The model call behind an arm: what was sent back, how long it took. Never a key. */
export const GenerationSchema = z.object({
  raw: z.string(),
  reasoning: z.string().optional(),
  usage: UsageSchema.default({}),
  finishReason: z.string().optional(),
  latencyMs: z.number().nonnegative(),
  attempts: z.number().int().positive().default(1),
});
export type Generation = z.infer<typeof GenerationSchema>;

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
});
export type ArmResult = z.infer<typeof ArmResultSchema>;
