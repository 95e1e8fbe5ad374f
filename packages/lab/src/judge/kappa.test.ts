import { describe, expect, it } from 'vitest';
import { cohensKappa, confusionOf } from './kappa.js';

describe('cohensKappa', () => {
  it('matches a hand-computed 2×2 table', () => {
    // a=20 both violated, b=5, c=10, d=15; n=50. pₒ=35/50=0.7. Rater A violated 25/50=0.5, rater B 30/50=0.6.
    // pₑ=0.5·0.6+0.5·0.4=0.5. κ=(0.7−0.5)/0.5=0.4. SE=√(0.7·0.3/(50·0.25))=√0.0168=0.129615; ±1.96·SE=0.254043.
    const result = cohensKappa({ bothViolated: 20, aViolatedBClean: 5, aCleanBViolated: 10, bothClean: 15 });
    expect(result.n).toBe(50);
    expect(result.observed).toBeCloseTo(0.7, 12);
    expect(result.expected).toBeCloseTo(0.5, 12);
    expect(result.kappa).toBeCloseTo(0.4, 12);
    expect(result.low).toBeCloseTo(0.145957, 5);
    expect(result.high).toBeCloseTo(0.654043, 5);
  });

  it('is 1 for perfect agreement (interval clipped at 1) and negative when raters disagree systematically', () => {
    const perfect = cohensKappa({ bothViolated: 4, aViolatedBClean: 0, aCleanBViolated: 0, bothClean: 6 });
    expect(perfect).toMatchObject({ kappa: 1, low: 1, high: 1 });
    // pₒ=0, pₑ=0.5·0.5+0.5·0.5=0.5 → κ=−1.
    expect(cohensKappa({ bothViolated: 0, aViolatedBClean: 3, aCleanBViolated: 3, bothClean: 0 }).kappa).toBeCloseTo(-1, 12);
  });

  it('is undefined with no items, or when both raters gave one grade only', () => {
    expect(cohensKappa({ bothViolated: 0, aViolatedBClean: 0, aCleanBViolated: 0, bothClean: 0 }).kappa).toBeNull();
    expect(cohensKappa({ bothViolated: 0, aViolatedBClean: 0, aCleanBViolated: 0, bothClean: 7 })).toMatchObject({ observed: 1, kappa: null });
  });

  it('tallies pairs into the matrix', () => {
    expect(
      confusionOf([
        ['violated', 'violated'],
        ['violated', 'clean'],
        ['clean', 'violated'],
        ['clean', 'clean'],
        ['clean', 'clean'],
      ]),
    ).toEqual({
      bothViolated: 1,
      aViolatedBClean: 1,
      aCleanBViolated: 1,
      bothClean: 2,
    });
  });
});
