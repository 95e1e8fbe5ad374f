import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fisherExact } from './fisher-exact.js';

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < Math.min(k, n - k); i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** The test done in exact rational arithmetic: slow, but no logarithms to go wrong. */
function exactFisher(a: number, b: number, c: number, d: number) {
  const row1 = a + b;
  const row2 = c + d;
  const column1 = a + c;
  const denominator = choose(row1 + row2, column1);
  const weight = (x: number) => choose(row1, x) * choose(row2, column1 - x);
  const observed = weight(a);
  let less = 0n;
  let greater = 0n;
  let twoSided = 0n;
  for (let x = Math.max(0, column1 - row2); x <= Math.min(row1, column1); x++) {
    const w = weight(x);
    if (x <= a) less += w;
    if (x >= a) greater += w;
    if (w <= observed) twoSided += w;
  }
  const scale = 10n ** 15n;
  const toNumber = (value: bigint) => Number((value * scale) / denominator) / 1e15;
  return { pLess: toNumber(less), pGreater: toNumber(greater), pTwoSided: toNumber(twoSided) };
}

describe('fisherExact', () => {
  it('gives the lady tasting tea its published p values', () => {
    const result = fisherExact(3, 1, 1, 3);
    expect(result.pTwoSided).toBeCloseTo(0.4857, 4);
    expect(result.pGreater).toBeCloseTo(0.2429, 4);
    expect(result.pLess).toBeCloseTo(0.9857, 4);
  });

  it('matches R for a lopsided table', () => {
    // fisher.test(matrix(c(10, 0, 2, 8), 2, byrow = TRUE))$p.value
    expect(fisherExact(10, 0, 2, 8).pTwoSided).toBeCloseTo(0.0007144, 6);
  });

  it('is 1 when both rows are the same', () => {
    expect(fisherExact(5, 5, 5, 5).pTwoSided).toBeCloseTo(1, 12);
    expect(fisherExact(0, 0, 0, 0)).toEqual({ pLess: 1, pGreater: 1, pTwoSided: 1 });
  });

  it('stays exact for tables with thousands of rounds', () => {
    expect(fisherExact(1480, 520, 1400, 600).pTwoSided).toBeCloseTo(exactFisher(1480, 520, 1400, 600).pTwoSided, 10);
    const tiny = fisherExact(2000, 0, 0, 2000).pTwoSided;
    expect(tiny).toBeGreaterThanOrEqual(0);
    expect(tiny).toBeLessThan(1e-300);
  });

  it('agrees with exact rational arithmetic on random tables', () => {
    const cell = fc.integer({ min: 0, max: 60 });
    fc.assert(
      fc.property(cell, cell, cell, cell, (a, b, c, d) => {
        const fast = fisherExact(a, b, c, d);
        const exact = exactFisher(a, b, c, d);
        expect(fast.pLess).toBeCloseTo(exact.pLess, 9);
        expect(fast.pGreater).toBeCloseTo(exact.pGreater, 9);
        expect(fast.pTwoSided).toBeCloseTo(exact.pTwoSided, 9);
        expect(fisherExact(c, d, a, b).pTwoSided).toBeCloseTo(fast.pTwoSided, 9);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses negative or fractional counts', () => {
    expect(() => fisherExact(-1, 1, 1, 1)).toThrow(RangeError);
    expect(() => fisherExact(1.5, 1, 1, 1)).toThrow(RangeError);
  });
});
