import { Z_95 } from '@holdfast/core/stats';

/** Two raters' binary grades of the same items: `a` said violated/clean down the rows, `b` across. */
export interface Confusion {
  readonly bothViolated: number;
  readonly aViolatedBClean: number;
  readonly aCleanBViolated: number;
  readonly bothClean: number;
}

export interface Kappa {
  readonly n: number;
  /** Observed agreement. */
  readonly observed: number | null;
  /** Agreement expected by chance from each rater's own rates. */
  readonly expected: number | null;
  /** Cohen's kappa; null when it is undefined (no items, or both raters gave one grade only). */
  readonly kappa: number | null;
  /** 95% interval from the large-sample standard error √(pₒ(1−pₒ) / (n(1−pₑ)²)), clipped to [−1, 1]. */
  readonly low: number | null;
  readonly high: number | null;
}

/** Cohen's kappa of a 2×2 confusion matrix, with its 95% interval. */
export function cohensKappa(matrix: Confusion): Kappa {
  const n = matrix.bothViolated + matrix.aViolatedBClean + matrix.aCleanBViolated + matrix.bothClean;
  if (n === 0) return { n, observed: null, expected: null, kappa: null, low: null, high: null };
  const observed = (matrix.bothViolated + matrix.bothClean) / n;
  const aViolated = (matrix.bothViolated + matrix.aViolatedBClean) / n;
  const bViolated = (matrix.bothViolated + matrix.aCleanBViolated) / n;
  const expected = aViolated * bViolated + (1 - aViolated) * (1 - bViolated);
  if (expected === 1) return { n, observed, expected, kappa: null, low: null, high: null };
  const kappa = (observed - expected) / (1 - expected);
  const standardError = Math.sqrt((observed * (1 - observed)) / (n * (1 - expected) ** 2));
  return { n, observed, expected, kappa, low: Math.max(-1, kappa - Z_95 * standardError), high: Math.min(1, kappa + Z_95 * standardError) };
}

/** Tallies pairs of grades into a confusion matrix. */
export function confusionOf(pairs: Iterable<readonly ['violated' | 'clean', 'violated' | 'clean']>): Confusion {
  let bothViolated = 0;
  let aViolatedBClean = 0;
  let aCleanBViolated = 0;
  let bothClean = 0;
  for (const [a, b] of pairs) {
    if (a === 'violated' && b === 'violated') bothViolated += 1;
    else if (a === 'violated') aViolatedBClean += 1;
    else if (b === 'violated') aCleanBViolated += 1;
    else bothClean += 1;
  }
  return { bothViolated, aViolatedBClean, aCleanBViolated, bothClean };
}
