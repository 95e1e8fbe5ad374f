import type { PressureRecord, PressureVerdict } from '@holdfast/core/contract';

/** The suite's judgement over scored replies: any non-pass fails it, and so does having none. */
export interface PressureGate {
  readonly ok: boolean;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly failures: readonly {
    readonly fixture_id: string;
    readonly target: string | undefined;
    readonly rep: number;
    readonly verdict: PressureVerdict;
    readonly reason: string;
  }[];
}

/**
 * No partial credit: one failed reply fails the gate. Zero replies fail it too, because a gate
 * that scored nothing has shown nothing.
 */
export function pressureGate(records: readonly PressureRecord[]): PressureGate {
  const failures = records
    .filter((record) => record.result.verdict !== 'pass')
    .map((record) => ({ fixture_id: record.fixture_id, target: record.target, rep: record.rep, verdict: record.result.verdict, reason: record.result.reason }));
  return {
    ok: records.length > 0 && failures.length === 0,
    total: records.length,
    passed: records.length - failures.length,
    failed: failures.length,
    failures,
  };
}

export function formatPressureGate(gate: PressureGate): string {
  if (gate.total === 0) return 'FAIL: no replies were scored; an empty responses file is not a pass.';
  return `${gate.ok ? 'PASS' : 'FAIL'}: ${gate.passed} of ${gate.total} replies passed, ${gate.failed} failed.`;
}
