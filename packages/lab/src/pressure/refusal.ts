import { InputError } from '@holdfast/core/contract';

/**
 * Every reason the linter refuses a fixture. Codes are stable: scripts and tests match on them.
 * The linter is deny-by-default, so anything it cannot prove well-formed lands in one of these.
 */
export const REFUSAL_CODES = [
  'E_PRESSURE_JSON',
  'E_PRESSURE_SHAPE',
  'E_PRESSURE_ID',
  'E_PRESSURE_DUPLICATE_ID',
  'E_PRESSURE_UNKNOWN_RULE',
  'E_PRESSURE_UNKNOWN_AGENT',
  'E_PRESSURE_AGENT_RULE',
  'E_PRESSURE_SCENARIO_SHORT',
  'E_PRESSURE_TOO_FEW_PRESSURES',
  'E_PRESSURE_UNKNOWN_PRESSURE',
  'E_PRESSURE_DUPLICATE_PRESSURE',
  'E_PRESSURE_TOO_FEW_CHOICES',
  'E_PRESSURE_CHOICE_ID',
  'E_PRESSURE_COMPLIANT_COUNT',
  'E_PRESSURE_CORRECT_CHOICE',
  'E_PRESSURE_NO_RATIONALIZATIONS',
  'E_PRESSURE_NO_COUNTER',
  'E_PRESSURE_PLACEHOLDER',
  'E_PRESSURE_READ',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * Checks holdfast adds beyond the seed. They warn and never refuse, so a fixture valid under the
 * published schema is never refused for them.
 */
export const WARNING_CODES = ['W_PRESSURE_SCENARIO_PATH', 'W_PRESSURE_WEAK_COUNTER'] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/** Something a person may want to fix; the fixture is still accepted. */
export interface LintWarning {
  readonly code: WarningCode;
  readonly file: string;
  readonly field: string;
  readonly message: string;
}

/** One reason a fixture was refused: the code, the file, the field (a dotted path) and what to fix. */
export interface Refusal {
  readonly code: RefusalCode;
  readonly file: string;
  readonly field: string;
  readonly message: string;
}

export function formatRefusal(refusal: Refusal | LintWarning): string {
  return `${refusal.file}: ${refusal.field}: ${refusal.message} [${refusal.code}]`;
}

/** Thrown by `parsePressureFixture`; carries every refusal, its code is the first one's. */
export class PressureFixtureError extends InputError {
  readonly refusals: readonly Refusal[];

  constructor(refusals: readonly Refusal[]) {
    const first = refusals[0];
    super(first?.code ?? 'E_PRESSURE_SHAPE', refusals.map(formatRefusal).join('\n') || 'fixture refused');
    this.refusals = refusals;
  }
}

/** A fixture id that no loaded fixture has. */
export class UnknownFixtureError extends InputError {
  constructor(id: string, known: readonly string[]) {
    super('E_PRESSURE_UNKNOWN_FIXTURE', `no pressure fixture "${id}". Known: ${known.join(', ') || '(none)'}.`);
  }
}

/** A results or responses file line that does not match its schema. */
export class PressureFileError extends InputError {
  constructor(file: string, line: number, detail: string, options?: { cause?: unknown }) {
    super('E_PRESSURE_FILE', `${file}:${line}: ${detail}`, options);
  }
}
