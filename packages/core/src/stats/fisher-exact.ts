export interface FisherResult {
  /** P(X <= a): the first row's first cell is this small or smaller by chance. */
  pLess: number;
  /** P(X >= a). */
  pGreater: number;
  /** Sum of the probabilities of every table no more likely than the observed one (R's definition). */
  pTwoSided: number;
}

// Grown on demand and shared: log(i!) for i up to the largest table seen so far.
const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push((logFactorials[i - 1] ?? 0) + Math.log(i));
  return logFactorials[n] ?? Number.NaN;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

// Ties between tables of equal probability must count as "as extreme"; the relative tolerance
// absorbs the rounding of summed logarithms (R uses the same 1e-7).
const RELATIVE_TOLERANCE = 1 + 1e-7;

/**
 * Fisher's exact test on the 2×2 table [[a, b], [c, d]], e.g. passes/fails of run A in the first
 * row and of run B in the second. Probabilities come from log-factorials, so tables with n in the
 * thousands stay exact and never overflow.
 */
export function fisherExact(a: number, b: number, c: number, d: number): FisherResult {
  for (const cell of [a, b, c, d]) {
    if (!Number.isInteger(cell) || cell < 0) throw new RangeError(`Fisher's test needs whole counts >= 0, got ${a}, ${b}, ${c}, ${d}`);
  }
  const row1 = a + b;
  const row2 = c + d;
  const column1 = a + c;
  const total = row1 + row2;
  const minimum = Math.max(0, column1 - row2);
  const maximum = Math.min(row1, column1);
  const logDenominator = logChoose(total, column1);
  const probabilities: number[] = [];
  for (let x = minimum; x <= maximum; x++) {
    probabilities.push(Math.exp(logChoose(row1, x) + logChoose(row2, column1 - x) - logDenominator));
  }
  const observed = probabilities[a - minimum] ?? 0;
  let pLess = 0;
  let pGreater = 0;
  let pTwoSided = 0;
  probabilities.forEach((probability, offset) => {
    const x = minimum + offset;
    if (x <= a) pLess += probability;
    if (x >= a) pGreater += probability;
    if (probability <= observed * RELATIVE_TOLERANCE) pTwoSided += probability;
  });
  return { pLess: Math.min(1, pLess), pGreater: Math.min(1, pGreater), pTwoSided: Math.min(1, pTwoSided) };
}
