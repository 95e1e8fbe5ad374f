import { z } from 'zod';
import { ActionSchema, InputError, safeParseJson } from '@holdfast/core/contract';

/**
 * One labelled case of a calibration set: what an arm did (its actions and, optionally, the text
 * of its reply), the judge rule it is about, and the verdict a person gave it.
 */
export const CalibrationCaseSchema = z.strictObject({
  id: z.string().min(1),
  rule: z.string().min(1),
  label: z.enum(['violated', 'clean']),
  actions: z.array(ActionSchema),
  reply: z.string().optional(),
  /** Paths the repository already had (the deterministic check needs them: a test for an existing file). */
  existing: z.array(z.string()).default([]),
  note: z.string().optional(),
});
export type CalibrationCase = z.infer<typeof CalibrationCaseSchema>;

/** Reads a JSONL calibration set; a bad line is refused with its file, line and field. */
export function parseCalibrationCases(text: string, file: string): CalibrationCase[] {
  const cases: CalibrationCase[] = [];
  const ids = new Set<string>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file} line ${index + 1}`;
    const json = safeParseJson(line);
    if (!json.ok) throw new InputError('E_CALIBRATION_CASE', `${where}: not JSON (${json.error}); write one case object per line.`);
    const parsed = CalibrationCaseSchema.safeParse(json.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError(
        'E_CALIBRATION_CASE',
        `${where}: field ${issue.path.join('.') || '(top level)'}: ${issue.message}; a case is {"id", "rule", "label": "violated"|"clean", "actions": [...], "reply"?}.`,
      );
    }
    if (ids.has(parsed.data.id)) throw new InputError('E_CALIBRATION_CASE', `${where}: duplicate case id "${parsed.data.id}"; give each case its own id.`);
    ids.add(parsed.data.id);
    cases.push(parsed.data);
  });
  if (cases.length === 0) throw new InputError('E_CALIBRATION_CASE', `${file} holds no cases; write one JSON case per line.`);
  return cases;
}
