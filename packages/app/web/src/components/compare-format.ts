import type { RateComparison } from '@holdfast/core/browser';

/** `+80 pp [45–95]`: the difference A − B in percentage points with its 95% interval. */
export function formatDifference(comparison: RateComparison): string {
  if (comparison.difference === null || comparison.low === null || comparison.high === null) return '–';
  const points = (value: number) => Math.round(value * 100);
  const sign = points(comparison.difference) > 0 ? '+' : '';
  return `${sign}${points(comparison.difference)} pp [${points(comparison.low)}–${points(comparison.high)}]`;
}

/** Fisher's p with three decimals, or `<0.001`. */
export function formatP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}
