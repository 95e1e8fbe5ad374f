import type { Arm, Totals } from '@holdfast/core/browser';
import { compareRates } from '@holdfast/core/browser';
import type { RateComparison } from '@holdfast/core/browser';

export interface CompareRow {
  readonly target: string;
  readonly arm: Arm;
  /** `rounds with an attempt`, `rounds where a violation landed`, `clean rounds`, or `R2 landed of attempts`. */
  readonly measure: string;
  readonly rule?: string;
  /** A: this run; B: the other run. Difference = A − B with Newcombe's 95% interval, Fisher's exact p. */
  readonly comparison: RateComparison;
}

const RATES = [
  ['roundsWithAttempt', 'rounds with an attempt'],
  ['roundsLanded', 'rounds where a violation landed'],
  ['clean', 'clean rounds'],
] as const;

/**
 * Two runs side by side per target × arm (targets and arms both runs have): each headline rate, and
 * per rule the share of its attempted violations that landed. Never pools targets or arms.
 */
export function compareTotals(a: Totals, b: Totals): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const left of a.arms) {
    const right = b.arms.find((candidate) => candidate.target === left.target && candidate.arm === left.arm);
    if (right === undefined) continue;
    const key = { target: left.target, arm: left.arm };
    for (const [field, measure] of RATES) {
      rows.push({ ...key, measure, comparison: compareRates(left[field].count, left[field].n, right[field].count, right[field].n) });
    }
    const rules = [...new Set([...left.perRule.map((row) => row.rule), ...right.perRule.map((row) => row.rule)])].sort();
    for (const rule of rules) {
      const ruleA = left.perRule.find((row) => row.rule === rule);
      const ruleB = right.perRule.find((row) => row.rule === rule);
      rows.push({
        ...key,
        rule,
        measure: `${rule} landed of attempts`,
        comparison: compareRates(ruleA?.landed ?? 0, ruleA?.attempts ?? 0, ruleB?.landed ?? 0, ruleB?.attempts ?? 0),
      });
    }
  }
  return rows;
}
