import type { Arm, ArmTotals, Totals } from '@holdfast/core/browser';
import { compareRates } from '@holdfast/core/browser';
import type { RateComparison } from '@holdfast/core/browser';

export interface CompareRow {
  /** A's target; `otherTarget` is B's (the same name when the runs share the target). */
  readonly target: string;
  readonly otherTarget: string;
  readonly arm: Arm;
  /**
   * `rounds with an attempt`, `rounds where a violation landed`, `clean rounds`, `clean and done`, `R2 landed of attempts`,
   * or (held, a rule at warn) `R4 warned of attempts`.
   */
  readonly measure: string;
  readonly rule?: string;
  /** A: this run; B: the other run. Difference = A − B with Newcombe's 95% interval, Fisher's exact p. */
  readonly comparison: RateComparison;
}

/** Which target of A is set against which target of B. */
export interface TargetPair {
  readonly a: string;
  readonly b: string;
}

const RATES = [
  ['roundsWithAttempt', 'rounds with an attempt'],
  ['roundsLanded', 'rounds where a violation landed'],
  ['clean', 'clean rounds'],
  ['cleanAndDone', 'clean and done'],
] as const;

const ARMS: readonly Arm[] = ['told', 'held'];

function targetsOf(totals: Totals): string[] {
  return [...new Set(totals.arms.map((row) => row.target))];
}

/**
 * The targets both runs have, each set against itself; when they share none (two different
 * models, two scripted demos), the first target of each, so any two runs can be compared.
 */
export function defaultPairs(a: Totals, b: Totals): TargetPair[] {
  const inB = new Set(targetsOf(b));
  const shared = targetsOf(a).filter((target) => inB.has(target));
  if (shared.length > 0) return shared.map((target) => ({ a: target, b: target }));
  const first = targetsOf(a)[0];
  const other = targetsOf(b)[0];
  return first === undefined || other === undefined ? [] : [{ a: first, b: other }];
}

/** Whether the runs share at least one target (then the comparison is target by target). */
export function shareTargets(a: Totals, b: Totals): boolean {
  const inB = new Set(targetsOf(b));
  return targetsOf(a).some((target) => inB.has(target));
}

function pairRows(left: ArmTotals, right: ArmTotals): CompareRow[] {
  const key = { target: left.target, otherTarget: right.target, arm: left.arm };
  const rows: CompareRow[] = [];
  for (const [field, measure] of RATES) {
    // Clean and done exists only where done was judged in either run; a row of n = 0 against n = 0 says nothing.
    if (field === 'cleanAndDone' && left[field].n === 0 && right[field].n === 0) continue;
    rows.push({ ...key, measure, comparison: compareRates(left[field].count, left[field].n, right[field].count, right[field].n) });
  }
  const rules = [...new Set([...left.perRule.map((row) => row.rule), ...right.perRule.map((row) => row.rule)])].sort();
  for (const rule of rules) {
    const ruleA = left.perRule.find((row) => row.rule === rule);
    const ruleB = right.perRule.find((row) => row.rule === rule);
    // A rule neither run attempted has nothing to compare.
    if ((ruleA?.attempts ?? 0) === 0 && (ruleB?.attempts ?? 0) === 0) continue;
    rows.push({
      ...key,
      rule,
      measure: `${rule} landed of attempts`,
      comparison: compareRates(ruleA?.landed ?? 0, ruleA?.attempts ?? 0, ruleB?.landed ?? 0, ruleB?.attempts ?? 0),
    });
    // A rule at warn in either run lets its violations through apart from landed: their share is its own row.
    if ((ruleA?.warned ?? 0) + (ruleB?.warned ?? 0) > 0) {
      rows.push({
        ...key,
        rule,
        measure: `${rule} warned of attempts`,
        comparison: compareRates(ruleA?.warned ?? 0, ruleA?.attempts ?? 0, ruleB?.warned ?? 0, ruleB?.attempts ?? 0),
      });
    }
  }
  return rows;
}

/**
 * Two runs side by side per target pair × arm: each headline rate, and per rule the share of its
 * attempted violations that landed. Never pools targets or arms: told is compared with told, held
 * with held, one target of A with one target of B (by default the same target; see `defaultPairs`).
 */
export function compareTotals(a: Totals, b: Totals, pairs: readonly TargetPair[] = defaultPairs(a, b)): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const pair of pairs) {
    for (const arm of ARMS) {
      const left = a.arms.find((row) => row.target === pair.a && row.arm === arm);
      const right = b.arms.find((row) => row.target === pair.b && row.arm === arm);
      if (left !== undefined && right !== undefined) rows.push(...pairRows(left, right));
    }
  }
  return rows;
}

/** Below this Fisher's exact p the two runs differ on a row. */
const SIGNIFICANCE_LEVEL = 0.05;

/**
 * The row's one verdict: the runs differ on it when Fisher's exact test, the p the row prints, is below 0.05. The
 * Newcombe interval beside it says how large the difference may be; it is not a second verdict, so a row is never
 * marked differing beside a p that says it does not.
 */
export function differs(row: CompareRow): boolean {
  return row.comparison.difference !== null && row.comparison.pTwoSided < SIGNIFICANCE_LEVEL;
}

/** Most significant first (Fisher's p, then the larger difference); the run order otherwise. */
export function bySignificance(rows: readonly CompareRow[]): CompareRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (left, right) =>
        left.row.comparison.pTwoSided - right.row.comparison.pTwoSided ||
        Math.abs(right.row.comparison.difference ?? 0) - Math.abs(left.row.comparison.difference ?? 0) ||
        left.index - right.index,
    )
    .map(({ row }) => row);
}
