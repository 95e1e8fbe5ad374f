import type { Rate } from '../contract/index.js';

export interface Interval {
  /** count / n, or null when n is 0 (nothing was observed, so there is no rate). */
  rate: number | null;
  low: number | null;
  high: number | null;
}

/** z for a two-sided 95% interval, as the published tables round it. */
export const Z_95 = 1.96;

function assertCounts(count: number, n: number): void {
  if (!Number.isInteger(count) || !Number.isInteger(n) || count < 0 || n < 0 || count > n) {
    throw new RangeError(`a proportion needs whole numbers 0 <= count <= n, got ${count}/${n}`);
  }
}

/**
 * Wilson score interval for a binomial proportion. Chosen over the normal (Wald) interval because
 * our n is small (tens of rounds) and rates sit near 0 or 1, where Wald collapses to a zero-width
 * interval. The bounds are exact 0 and 1 at the extremes rather than floating-point neighbours.
 */
export function wilson(count: number, n: number, z = Z_95): Interval {
  assertCounts(count, n);
  if (n === 0) return { rate: null, low: null, high: null };
  const p = count / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const low = count === 0 ? 0 : Math.max(0, center - half);
  const high = count === n ? 1 : Math.min(1, center + half);
  return { rate: p, low, high };
}

/** A proportion as the contract shows it: never a rate without its n and a Wilson 95% interval. */
export function toRate(count: number, n: number): Rate {
  return { count, n, ...wilson(count, n) };
}
