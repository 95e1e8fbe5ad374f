/** What a figure is held to: its value, or its ratio to the baseline, at least or at most a bound. */
interface BenchTarget {
  readonly on: 'value' | 'ratio';
  readonly atLeast?: number;
  readonly atMost?: number;
}

/** One measurement as a benchmark states it: what was measured, against what, held to what. */
export interface FigureInput {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The same work done by the thing we compare with, measured in the same run. */
  readonly baseline?: { readonly name: string; readonly value: number };
  /** Whether a larger value is the better one (throughput) or a smaller one (time). */
  readonly better: 'higher' | 'lower';
  readonly target?: BenchTarget;
  /** What a person reading the line should also know (the raw times behind a ratio). */
  readonly detail?: string;
}

export interface Figure extends FigureInput {
  readonly bench: string;
  /** value / baseline value, when there is a baseline. */
  readonly ratio?: number;
  readonly met?: boolean;
}

export type RecordFigure = (figure: FigureInput) => void;

export function completeFigure(bench: string, input: FigureInput): Figure {
  const ratio = input.baseline !== undefined && input.baseline.value !== 0 ? input.value / input.baseline.value : undefined;
  const target = input.target;
  if (target === undefined) return { bench, ...input, ...(ratio !== undefined ? { ratio } : {}) };
  const measured = target.on === 'ratio' ? ratio : input.value;
  const met =
    measured !== undefined && (target.atLeast === undefined || measured >= target.atLeast) && (target.atMost === undefined || measured <= target.atMost);
  return { bench, ...input, ...(ratio !== undefined ? { ratio } : {}), met };
}

function amount(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return `${value.toFixed(digits)} ${unit}`.trim();
}

function bound(target: BenchTarget, unit: string): string {
  const show = (value: number) => (target.on === 'ratio' ? `${value}×` : amount(value, unit));
  const parts = [target.atLeast !== undefined ? `≥ ${show(target.atLeast)}` : '', target.atMost !== undefined ? `≤ ${show(target.atMost)}` : ''].filter(
    Boolean,
  );
  return `${target.on === 'ratio' ? 'ratio ' : ''}${parts.join(' and ')}`;
}

/** One line: `name  value | baseline … | ratio … | target … | met`. Every part a figure has is shown. */
export function formatFigure(figure: Figure): string {
  const parts = [`${figure.name}: ${amount(figure.value, figure.unit)}${figure.detail !== undefined ? ` (${figure.detail})` : ''}`];
  if (figure.baseline !== undefined) parts.push(`baseline ${figure.baseline.name} ${amount(figure.baseline.value, figure.unit)}`);
  if (figure.ratio !== undefined) parts.push(`ratio ${figure.ratio.toFixed(2)}× (${figure.better} is better)`);
  parts.push(figure.target !== undefined ? `target ${bound(figure.target, figure.unit)}` : 'no target');
  if (figure.met !== undefined) parts.push(figure.met ? 'met' : 'MISSED');
  return parts.join(' | ');
}

/**
 * How a time grows when the input grows `linear` times (×10 from 100 KB to 1 MB): linear code
 * grows by about `linear`; the target allows `atMost` for noise.
 */
export function growthFigure(name: string, smallMs: number, largeMs: number, linear: number, atMost: number): FigureInput {
  // Below a tenth of a millisecond (a scan skipped because its literal is absent) timer noise is
  // the whole measurement: the ratio is shown, but not held to the target.
  const measurable = largeMs >= MEASURABLE_MS;
  return {
    name,
    value: largeMs / smallMs,
    unit: '×',
    better: 'lower',
    detail: `${smallMs.toFixed(2)} → ${largeMs.toFixed(2)} ms${measurable ? '' : ', too fast to judge growth'}`,
    baseline: { name: 'linear growth', value: linear },
    ...(measurable ? { target: { on: 'value', atMost } } : {}),
  };
}

const MEASURABLE_MS = 0.1;
