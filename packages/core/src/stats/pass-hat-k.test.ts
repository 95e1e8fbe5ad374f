import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passHatK } from './pass-hat-k.js';

function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

describe('passHatK', () => {
  it('is the plain pass rate at k = 1', () => {
    expect(passHatK(5, 10, 1)).toBe(0.5);
    expect(passHatK(3, 4, 1)).toBe(0.75);
  });

  it('is C(c, k) / C(n, k), smaller than the rate to the power k would suggest', () => {
    expect(passHatK(5, 10, 2)).toBeCloseTo(20 / 90, 12);
    expect(passHatK(8, 10, 3)).toBeCloseTo((8 * 7 * 6) / (10 * 9 * 8), 12);
    expect(passHatK(2, 4, 3)).toBe(0);
  });

  it('is 1 when every try passed and 0 when none did', () => {
    expect(passHatK(6, 6, 6)).toBe(1);
    expect(passHatK(0, 6, 1)).toBe(0);
  });

  it('is null when k is more than the tries', () => {
    expect(passHatK(3, 3, 4)).toBeNull();
    expect(passHatK(0, 0, 1)).toBeNull();
  });

  it('refuses a k below 1 and impossible counts', () => {
    expect(() => passHatK(1, 2, 0)).toThrow(RangeError);
    expect(() => passHatK(3, 2, 1)).toThrow(RangeError);
  });

  it('matches the exact ratio of binomials and never rises with k', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n), fc.integer({ min: 1, max: n }))),
        ([successes, n, k]) => {
          const exact = Number((choose(successes, k) * 10n ** 15n) / choose(n, k)) / 1e15;
          const value = passHatK(successes, n, k)!;
          expect(value).toBeCloseTo(exact, 12);
          if (k > 1) expect(value).toBeLessThanOrEqual(passHatK(successes, n, k - 1)!);
        },
      ),
      { numRuns: 200 },
    );
  });
});
