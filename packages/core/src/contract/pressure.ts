import { z } from 'zod';
import { UsageSchema } from './arm-result.js';

/**
 * Pressure fixtures: a realistic scenario that stacks pressures against one rule and forces a
 * discrete choice. On-disk formats use snake_case because people write these files by hand.
 */

/**
 * The six pressures of ADR-0024: the closed set. An unknown name is a typo, and a typo that counted
 * towards the floor would hollow it out.
 */
export const PRESSURE_KINDS = ['time', 'sunk_cost', 'authority', 'exhaustion', 'social', 'economic'] as const;
/** Kinds beyond the seed; a suite uses one only after declaring it (`extensions.json`). */
export const PRESSURE_KIND_EXTENSIONS = ['pragmatic'] as const;
export const PressureKindSchema = z.enum([...PRESSURE_KINDS, ...PRESSURE_KIND_EXTENSIONS]);
export type PressureKind = z.infer<typeof PressureKindSchema>;

export const PRESSURE_ID_PATTERN = /^PRS-[A-Z0-9-]+$/;
export const CHOICE_ID_PATTERN = /^[A-Z]$/;

export const PressureChoiceSchema = z.strictObject({
  id: z.string().regex(CHOICE_ID_PATTERN),
  text: z.string().min(1),
  compliant: z.boolean(),
});
export type PressureChoice = z.infer<typeof PressureChoiceSchema>;

export const RationalizationSchema = z.strictObject({
  /** What an agent says to talk itself out of the rule. */
  excuse: z.string().min(1),
  /** The answer to that excuse. */
  counter: z.string().min(1),
});
export type Rationalization = z.infer<typeof RationalizationSchema>;

/**
 * The shape of a fixture. The floors (three pressures, three choices, one compliant choice, a
 * counter that answers its excuse) are enforced by the pressure linter, which names a stable code
 * for each refusal; this schema only fixes the types.
 */
export const PressureFixtureSchema = z.strictObject({
  schema_version: z.literal(1),
  id: z.string().regex(PRESSURE_ID_PATTERN),
  /** A rule id ("R1") or, for suites written against a numbered mandate, its number (8 for "Rule 8"). */
  rule: z.union([z.string().min(1), z.number().int().positive()]),
  agent: z.string().min(1).optional(),
  title: z.string().min(1),
  scenario: z.string().min(1),
  pressures: z.array(PressureKindSchema),
  choices: z.array(PressureChoiceSchema),
  correct_choice: z.string().regex(CHOICE_ID_PATTERN),
  rationalizations: z.array(RationalizationSchema),
  must_cite: z.array(z.string().min(1)).optional(),
});
export type PressureFixture = z.infer<typeof PressureFixtureSchema>;

/**
 * Checked in this order; the first that applies wins. `fail-unparseable`: no decision was found (no
 * line starts with `CHOICE:` and names an option). `fail-hybrid`: the CHOICE lines name more than one
 * option, on one line or across lines. `error` is a provider failure, never a pass.
 */
export const PressureVerdictSchema = z.enum(['pass', 'fail-unparseable', 'fail-hybrid', 'fail-choice', 'fail-citation', 'error']);
export type PressureVerdict = z.infer<typeof PressureVerdictSchema>;

/** told: the rulebook prose is in the prompt. untold: it is not (the red baseline). */
export const PressureVariantSchema = z.enum(['told', 'untold']);
export type PressureVariant = z.infer<typeof PressureVariantSchema>;

/** The scorer's judgement of one reply to one fixture. */
export const PressureEvaluationSchema = z.object({
  fixture_id: z.string(),
  /** The rule's id in the rulebook (a fixture's `rule: 8` is resolved to the rule numbered 8). */
  rule: z.string(),
  verdict: PressureVerdictSchema,
  /** One sentence: why this verdict. */
  reason: z.string(),
  expected: z.string(),
  /** Distinct choices the reply made, in order of appearance. */
  chosen: z.array(z.string()),
  choices: z.array(PressureChoiceSchema),
  citation_required: z.boolean(),
  /** How the reply cited the rule (its id, `Rule N`, its exact name) and the must_cite strings it contains. */
  cited: z.array(z.string()),
  /** What the reply had to cite and did not. */
  missing_citations: z.array(z.string()),
  /** Known excuses of the fixture that the reply repeats. */
  rationalizations_repeated: z.array(z.string()),
});
export type PressureEvaluation = z.infer<typeof PressureEvaluationSchema>;

/**
 * Who produced a reply. `written` replies were written by hand (examples, tests) and are never
 * outputs of a model; `recorded` replies came from a model call.
 */
export const ResponseOriginSchema = z.enum(['written', 'recorded']);
export type ResponseOrigin = z.infer<typeof ResponseOriginSchema>;

/** One line of a responses file fed to `holdfast pressure report`. */
export const PressureResponseLineSchema = z.object({
  fixture_id: z.string().min(1),
  response: z.string(),
  target: z.string().min(1).optional(),
  rep: z.number().int().nonnegative().optional(),
  variant: PressureVariantSchema.optional(),
  origin: ResponseOriginSchema.optional(),
  /** Free text for people: what this reply was written to exercise. */
  note: z.string().optional(),
  /** For hand-written examples: the verdict the reply was written to get (a test holds the scorer to it). */
  expected_verdict: PressureVerdictSchema.optional(),
});
export type PressureResponseLine = z.infer<typeof PressureResponseLineSchema>;

/** One line of a pressure results file, written by `pressure run` and `pressure report`. */
export const PressureRecordSchema = z.object({
  type: z.literal('pressure-result'),
  version: z.literal(1),
  time: z.string(),
  fixture_id: z.string(),
  rule: z.string(),
  agent: z.string().optional(),
  /** The agent file whose body was the system prompt of the live call, when the suite defines agents. */
  agent_definition: z.object({ file: z.string(), sha256: z.string() }).optional(),
  target: z.string().optional(),
  rep: z.number().int().nonnegative().default(0),
  variant: PressureVariantSchema,
  origin: ResponseOriginSchema,
  response: z.string(),
  result: PressureEvaluationSchema,
  generation: z
    .object({
      latencyMs: z.number().nonnegative(),
      attempts: z.number().int().positive(),
      usage: UsageSchema.default({}),
      reasoning: z.string().optional(),
    })
    .optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type PressureRecord = z.infer<typeof PressureRecordSchema>;
