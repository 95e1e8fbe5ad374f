import type { Rate } from '../contract/index.js';
import { fisherExact } from './fisher-exact.js';
import { toRate } from './wilson.js';

export interface RateComparison {
  a: Rate;
  b: Rate;
  /** rate A − rate B; null when either side has n = 0. */
  difference: number | null;
  /** 95% interval of the difference (Newcombe's hybrid score method); null with the difference. */
  low: number | null;
  high: number | null;
  /** Fisher's exact two-sided p for "the two rates are the same". 1 when there is nothing to compare. */
  pTwoSided: number;
}

/**
 * Compares two pass rates (e.g. a fixture before and after a prompt change). The interval is
 * Newcombe's method 10, built from the two Wilson intervals: it stays inside [-1, 1] and behaves
 * at 0/n and n/n, where the Wald difference interval does not.
 */
export function compareRates(countA: number, nA: number, countB: number, nB: number): RateComparison {
  const a = toRate(countA, nA);
  const b = toRate(countB, nB);
  const { pTwoSided } = fisherExact(countA, nA - countA, countB, nB - countB);
  if (a.rate === null || a.low === null || a.high === null || b.rate === null || b.low === null || b.high === null) {
    return { a, b, difference: null, low: null, high: null, pTwoSided };
  }
  const difference = a.rate - b.rate;
  const low = difference - Math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2);
  const high = difference + Math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2);
  return { a, b, difference, low: Math.max(-1, low), high: Math.min(1, high), pTwoSided };
}
