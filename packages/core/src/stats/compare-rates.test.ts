import { describe, expect, it } from 'vitest';
import { compareRates } from './compare-rates.js';

describe('compareRates', () => {
  // Newcombe (1998), Statistics in Medicine 17:873, table II, method 10.
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [6, 7, 2, 7, 0.0582, 0.8062],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
    [10, 10, 0, 20, 0.6791, 1],
    [10, 10, 0, 10, 0.6075, 1],
  ])('%i/%i vs %i/%i has the published interval [%f, %f]', (countA, nA, countB, nB, low, high) => {
    const comparison = compareRates(countA, nA, countB, nB);
    expect(comparison.difference).toBeCloseTo(countA / nA - countB / nB, 12);
    // The table is printed to 4 decimals and was computed with z rounded; allow one unit in the last place.
    expect(Math.abs(comparison.low! - low)).toBeLessThanOrEqual(1e-4);
    expect(Math.abs(comparison.high! - high)).toBeLessThanOrEqual(1e-4);
  });

  it('carries both rates and the Fisher two-sided p', () => {
    const comparison = compareRates(3, 4, 1, 4);
    expect(comparison.a).toMatchObject({ count: 3, n: 4, rate: 0.75 });
    expect(comparison.b).toMatchObject({ count: 1, n: 4, rate: 0.25 });
    expect(comparison.pTwoSided).toBeCloseTo(0.4857, 4);
  });

  it('has no difference when one side saw nothing', () => {
    const comparison = compareRates(3, 4, 0, 0);
    expect(comparison).toMatchObject({ difference: null, low: null, high: null, pTwoSided: 1 });
    expect(comparison.b.rate).toBeNull();
  });
});
