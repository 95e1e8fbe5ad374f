import type { PressureRecord, PressureVariant, PressureVerdict } from '@holdfast/core/contract';
import { InputError } from '@holdfast/core/contract';
import { fisherExact } from '@holdfast/core/stats';

/** Records of one fixture for one target and variant, over its repetitions. */
export interface PressureTally {
  readonly pass: number;
  readonly n: number;
  readonly verdicts: Readonly<Partial<Record<PressureVerdict, number>>>;
}

export type PressureChange = 'same' | 'pass-to-fail' | 'fail-to-pass' | 'fail-changed' | 'worse' | 'better' | 'missing-in-new' | 'new-only';

export interface PressureComparisonRow {
  readonly fixture_id: string;
  readonly rule: string;
  readonly target: string | undefined;
  readonly variant: PressureVariant;
  readonly base: PressureTally | undefined;
  readonly next: PressureTally | undefined;
  readonly change: PressureChange;
  /** One-sided Fisher exact p that the base passes more often than the new run; with repetitions only. */
  readonly pValue: number | undefined;
  readonly blocker: boolean;
  readonly reason: string;
}

export interface PressureComparison {
  readonly rows: readonly PressureComparisonRow[];
  readonly blockers: number;
  readonly alpha: number;
  /** Set when results were matched across a target rename: each side's one target. */
  readonly renamed: { readonly base: string; readonly next: string } | undefined;
}

export interface CompareOptions {
  readonly alpha?: number;
  /** Compare this target of the base results with `newTarget` of the new ones (a model swap). */
  readonly baseTarget?: string;
  readonly newTarget?: string;
}

export const DEFAULT_ALPHA = 0.05;

function keyOf(record: PressureRecord, byTarget: boolean): string {
  return JSON.stringify([record.fixture_id, byTarget ? (record.target ?? null) : null, record.variant]);
}

function tally(records: readonly PressureRecord[], byTarget: boolean): Map<string, { record: PressureRecord; tally: PressureTally }> {
  const groups = new Map<string, { record: PressureRecord; pass: number; n: number; verdicts: Partial<Record<PressureVerdict, number>> }>();
  for (const record of records) {
    const key = keyOf(record, byTarget);
    const group = groups.get(key) ?? { record, pass: 0, n: 0, verdicts: {} };
    group.n += 1;
    if (record.result.verdict === 'pass') group.pass += 1;
    group.verdicts[record.result.verdict] = (group.verdicts[record.result.verdict] ?? 0) + 1;
    groups.set(key, group);
  }
  return new Map([...groups].map(([key, group]) => [key, { record: group.record, tally: { pass: group.pass, n: group.n, verdicts: group.verdicts } }]));
}

function onlyVerdict(value: PressureTally): PressureVerdict | undefined {
  const entries = Object.keys(value.verdicts) as PressureVerdict[];
  return entries.length === 1 ? entries[0] : undefined;
}

/** The one target a results file holds, or undefined when it holds none or several. */
function soleTarget(records: readonly PressureRecord[]): string | undefined {
  const targets = new Set(records.map((record) => record.target));
  const [only] = targets;
  return targets.size === 1 ? only : undefined;
}

/**
 * Which targets to pair across the two files. Named targets win; otherwise, when each side holds
 * exactly one target and they differ (a model swap under a new target id), those two are paired
 * by fixture. Undefined: match fixture, target and variant as they are.
 */
function pairTargets(base: readonly PressureRecord[], next: readonly PressureRecord[], options: CompareOptions): { base: string; next: string } | undefined {
  if (options.baseTarget !== undefined || options.newTarget !== undefined) {
    const baseTarget = options.baseTarget ?? soleTarget(base);
    const newTarget = options.newTarget ?? soleTarget(next);
    if (baseTarget === undefined || newTarget === undefined) {
      throw new InputError('E_ARGS', 'name both targets (--base-target and --new-target) when a results file holds more than one');
    }
    for (const [side, records, target] of [
      ['base', base, baseTarget],
      ['new', next, newTarget],
    ] as const) {
      if (!records.some((record) => record.target === target)) {
        const known = [...new Set(records.map((record) => record.target ?? '(none)'))].join(', ');
        throw new InputError('E_ARGS', `the ${side} results have no target "${target}" (they have ${known})`);
      }
    }
    return { base: baseTarget, next: newTarget };
  }
  const baseTarget = soleTarget(base);
  const newTarget = soleTarget(next);
  return baseTarget !== undefined && newTarget !== undefined && baseTarget !== newTarget ? { base: baseTarget, next: newTarget } : undefined;
}

/**
 * Compares two pressure result files per fixture, target and variant. Single replies compare by
 * verdict: any pass → fail flip blocks a release. With repetitions, a unanimous flip (every base
 * reply passed, every new one failed) still blocks; otherwise pass rates are compared with Fisher's
 * exact test and a drop blocks when its one-sided p is below `alpha`. A fixture that the
 * new run lacks blocks too: a gate that skipped a fixture has not shown it still passes. Across a
 * target rename (named, or one target on each side) the two targets are paired by fixture.
 */
export function comparePressureResults(
  base: readonly PressureRecord[],
  next: readonly PressureRecord[],
  alphaOrOptions: number | CompareOptions = DEFAULT_ALPHA,
): PressureComparison {
  const options = typeof alphaOrOptions === 'number' ? { alpha: alphaOrOptions } : alphaOrOptions;
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const renamed = pairTargets(base, next, options);
  const baseRecords = renamed === undefined ? base : base.filter((record) => record.target === renamed.base);
  const nextRecords = renamed === undefined ? next : next.filter((record) => record.target === renamed.next);
  const baseTallies = tally(baseRecords, renamed === undefined);
  const nextTallies = tally(nextRecords, renamed === undefined);
  const keys = [...new Set([...baseTallies.keys(), ...nextTallies.keys()])].sort();
  const target = renamed === undefined ? undefined : `${renamed.base} → ${renamed.next}`;
  const rows = keys.map((key) => compareOne(baseTallies.get(key), nextTallies.get(key), alpha, target));
  return { rows, blockers: rows.filter((row) => row.blocker).length, alpha, renamed };
}

function compareOne(
  base: { record: PressureRecord; tally: PressureTally } | undefined,
  next: { record: PressureRecord; tally: PressureTally } | undefined,
  alpha: number,
  renamedTarget: string | undefined,
): PressureComparisonRow {
  const record = (base ?? next)?.record as PressureRecord;
  const head = { fixture_id: record.fixture_id, rule: record.rule, target: renamedTarget ?? record.target, variant: record.variant };
  if (next === undefined) {
    return {
      ...head,
      base: base?.tally,
      next: undefined,
      change: 'missing-in-new',
      pValue: undefined,
      blocker: true,
      reason: 'the new results have no reply for this fixture',
    };
  }
  if (base === undefined) {
    return { ...head, base: undefined, next: next.tally, change: 'new-only', pValue: undefined, blocker: false, reason: 'not in the base results' };
  }
  const b = base.tally;
  const n = next.tally;
  if (b.n === 1 && n.n === 1) {
    const baseVerdict = onlyVerdict(b) as PressureVerdict;
    const nextVerdict = onlyVerdict(n) as PressureVerdict;
    const flip = `${baseVerdict} → ${nextVerdict}`;
    if (baseVerdict === nextVerdict) return { ...head, base: b, next: n, change: 'same', pValue: undefined, blocker: false, reason: baseVerdict };
    if (baseVerdict === 'pass') return { ...head, base: b, next: n, change: 'pass-to-fail', pValue: undefined, blocker: true, reason: flip };
    if (nextVerdict === 'pass') return { ...head, base: b, next: n, change: 'fail-to-pass', pValue: undefined, blocker: false, reason: flip };
    return { ...head, base: b, next: n, change: 'fail-changed', pValue: undefined, blocker: false, reason: flip };
  }
  const fisher = fisherExact(b.pass, b.n - b.pass, n.pass, n.n - n.pass);
  const baseRate = b.pass / b.n;
  const nextRate = n.pass / n.n;
  const counts = `${b.pass}/${b.n} → ${n.pass}/${n.n}`;
  // Every base reply passed and every new one failed: a flip whatever the p-value at small n.
  if (b.pass === b.n && n.pass === 0) {
    return {
      ...head,
      base: b,
      next: n,
      change: 'pass-to-fail',
      pValue: fisher.pGreater,
      blocker: true,
      reason: `${counts} passed, p = ${formatP(fisher.pGreater)}`,
    };
  }
  if (b.pass === 0 && n.pass === n.n) {
    return {
      ...head,
      base: b,
      next: n,
      change: 'fail-to-pass',
      pValue: fisher.pLess,
      blocker: false,
      reason: `${counts} passed, p = ${formatP(fisher.pLess)}`,
    };
  }
  if (nextRate < baseRate) {
    const blocker = fisher.pGreater < alpha;
    return {
      ...head,
      base: b,
      next: n,
      change: 'worse',
      pValue: fisher.pGreater,
      blocker,
      reason: `${counts} passed, p = ${formatP(fisher.pGreater)}${blocker ? ` < ${alpha}` : ''}`,
    };
  }
  if (nextRate > baseRate) {
    return { ...head, base: b, next: n, change: 'better', pValue: fisher.pLess, blocker: false, reason: `${counts} passed, p = ${formatP(fisher.pLess)}` };
  }
  return { ...head, base: b, next: n, change: 'same', pValue: fisher.pGreater, blocker: false, reason: `${counts} passed` };
}

export function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
