import { z } from 'zod';
import { CappedTextSchema } from './capped-text.js';
import { UsageSchema } from './arm-result.js';

/**
 * A judge's verdict on one judge rule for one arm. `judge-error`: the judge could not grade (a
 * malformed reply, a timeout, a refusal, a provider failure). Advisory only: a judgement never
 * changes an arm's verdict and never blocks anything.
 */
export const JudgeVerdictSchema = z.enum(['violated', 'clean', 'judge-error']);
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

/** Where the judge points: a file and, when it can say, a line. */
export const JudgeEvidenceSchema = z.object({
  file: z.string(),
  line: z.number().int().positive().optional(),
  quote: z.string().optional(),
});
export type JudgeEvidence = z.infer<typeof JudgeEvidenceSchema>;

/** One call to the judge: what it answered, raw, and what holdfast read from it. */
export const JudgeSampleSchema = z.object({
  verdict: JudgeVerdictSchema,
  /** The judge's own confidence (0 to 1); absent on a judge-error. */
  confidence: z.number().min(0).max(1).optional(),
  reason: z.string(),
  evidence: z.array(JudgeEvidenceSchema).default([]),
  /** The reply exactly as the judge sent it, capped. */
  raw: CappedTextSchema,
  /** How the reply was read: the provider's native structured output, or holdfast's reply parser. */
  structured: z.enum(['native', 'parsed']).optional(),
  usage: UsageSchema.default({}),
  latencyMs: z.number().nonnegative().optional(),
  /** For a judge-error: what went wrong, with a stable code. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type JudgeSample = z.infer<typeof JudgeSampleSchema>;

/**
 * The judge rule's grade of one arm: the majority of its samples. `agreement` is the share of
 * graded samples that agree with the majority (1 when they all do), the spread of a noisy judge.
 */
export const JudgementSchema = z.object({
  rule: z.string(),
  name: z.string(),
  /** The target that graded, and its model. */
  judge: z.string(),
  model: z.string().optional(),
  verdict: JudgeVerdictSchema,
  /** Mean confidence of the samples in the majority; absent on a judge-error. */
  confidence: z.number().min(0).max(1).optional(),
  threshold: z.number().min(0).max(1),
  reason: z.string(),
  evidence: z.array(JudgeEvidenceSchema).default([]),
  agreement: z.number().min(0).max(1).optional(),
  samples: z.array(JudgeSampleSchema).min(1),
  usage: UsageSchema.default({}),
  /** In US dollars, where the judge's provider reports it. */
  costUsd: z.number().nonnegative().optional(),
  /** What the judge read: the arm's actions (plan mode), or its final diff and tool-call timeline. */
  material: z.enum(['actions', 'diff-and-timeline']),
});
export type Judgement = z.infer<typeof JudgementSchema>;
