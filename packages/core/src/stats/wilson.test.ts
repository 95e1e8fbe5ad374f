import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toRate, wilson } from './wilson.js';

describe('wilson', () => {
  // Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score interval).
  it.each([
    [0, 10, 0, 0.2775],
    [1, 10, 0.0179, 0.4042],
    [5, 10, 0.2366, 0.7634],
    [10, 10, 0.7225, 1],
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
  ])('%i/%i has the published interval [%f, %f]', (count, n, low, high) => {
    const interval = wilson(count, n);
    expect(interval.rate).toBeCloseTo(count / n, 10);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('has no rate and no interval when nothing was observed', () => {
    expect(wilson(0, 0)).toEqual({ rate: null, low: null, high: null });
  });

  it('is exactly 0 and 1 at the extremes', () => {
    expect(wilson(0, 7).low).toBe(0);
    expect(wilson(7, 7).high).toBe(1);
  });

  it('widens with a larger z', () => {
    const narrow = wilson(3, 20, 1.64);
    const wide = wilson(3, 20, 2.58);
    expect(wide.low!).toBeLessThan(narrow.low!);
    expect(wide.high!).toBeGreaterThan(narrow.high!);
  });

  it('refuses impossible counts', () => {
    expect(() => wilson(11, 10)).toThrow(RangeError);
    expect(() => wilson(-1, 10)).toThrow(RangeError);
    expect(() => wilson(1.5, 10)).toThrow(RangeError);
  });

  it('always contains the rate, inside [0, 1], and mirrors count ↔ n − count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([count, n]) => {
          const { rate, low, high } = wilson(count, n);
          const mirror = wilson(n - count, n);
          expect(low!).toBeGreaterThanOrEqual(0);
          expect(high!).toBeLessThanOrEqual(1);
          expect(low!).toBeLessThanOrEqual(rate!);
          expect(high!).toBeGreaterThanOrEqual(rate!);
          expect(mirror.low!).toBeCloseTo(1 - high!, 12);
          expect(mirror.high!).toBeCloseTo(1 - low!, 12);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('toRate', () => {
  it('carries count and n with the interval', () => {
    const rate = toRate(5, 10);
    expect(rate).toMatchObject({ count: 5, n: 10, rate: 0.5 });
    expect(rate.low).toBeCloseTo(0.2366, 4);
    expect(toRate(0, 0)).toEqual({ count: 0, n: 0, rate: null, low: null, high: null });
  });
});
