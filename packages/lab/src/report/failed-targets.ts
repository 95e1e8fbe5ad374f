import type { Totals } from '@holdfast/core/contract';

export interface FailedTarget {
  readonly target: string;
  readonly reason: string;
}

/**
 * Targets for which nothing was measured: every finished arm, told and held, ended in an error (an
 * unreachable server, a bad key, a model that does not exist). Such a target is an outage, not a
 * result, so the run says it failed; the reason is the first recorded error of the target.
 */
export function failedTargets(totals: Totals): FailedTarget[] {
  const byTarget = new Map<string, { rounds: number; errors: number; reasons: string[] }>();
  for (const arm of totals.arms) {
    const entry = byTarget.get(arm.target) ?? { rounds: 0, errors: 0, reasons: [] };
    entry.rounds += arm.rounds;
    entry.errors += arm.errors;
    for (const reason of arm.errorReasons) entry.reasons.push(`${reason.message} [${reason.code}]`);
    byTarget.set(arm.target, entry);
  }
  const failed: FailedTarget[] = [];
  for (const [target, entry] of byTarget) {
    if (entry.rounds === 0 || entry.errors < entry.rounds) continue;
    const reason = entry.reasons[0] ?? 'every model call failed';
    failed.push({ target, reason: `every model call failed (${entry.errors} of ${entry.rounds} arms): ${reason}` });
  }
  return failed;
}
