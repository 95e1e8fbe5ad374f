import type { PressureVerdict } from '@holdfast/core/contract';

/** Verdicts the scorer can give (not `error`, which only a failed model call records). */
export const PRESSURE_VERDICTS_FOR_TEST: readonly PressureVerdict[] = ['pass', 'fail-unparseable', 'fail-hybrid', 'fail-choice', 'fail-citation'];
