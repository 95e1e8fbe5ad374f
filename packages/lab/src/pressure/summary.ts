import type { PressureRecord, PressureVariant, PressureVerdict, Rate } from '@holdfast/core/contract';
import { toRate } from '@holdfast/core/stats';

/** Pass rate of one rule for one target and variant, with its interval and the verdict mix. */
export interface PressureSummaryRow {
  readonly rule: string;
  readonly target: string | undefined;
  readonly variant: PressureVariant;
  readonly pass: Rate;
  readonly verdicts: Readonly<Partial<Record<PressureVerdict, number>>>;
}

export function summarizePressureRecords(records: readonly PressureRecord[]): PressureSummaryRow[] {
  const groups = new Map<
    string,
    { rule: string; target: string | undefined; variant: PressureVariant; pass: number; n: number; verdicts: Partial<Record<PressureVerdict, number>> }
  >();
  for (const record of records) {
    const key = JSON.stringify([record.rule, record.target ?? null, record.variant]);
    const group = groups.get(key) ?? { rule: record.rule, target: record.target, variant: record.variant, pass: 0, n: 0, verdicts: {} };
    group.n += 1;
    if (record.result.verdict === 'pass') group.pass += 1;
    group.verdicts[record.result.verdict] = (group.verdicts[record.result.verdict] ?? 0) + 1;
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.rule.localeCompare(b.rule) || (a.target ?? '').localeCompare(b.target ?? '') || a.variant.localeCompare(b.variant))
    .map((group) => ({ rule: group.rule, target: group.target, variant: group.variant, pass: toRate(group.pass, group.n), verdicts: group.verdicts }));
}
