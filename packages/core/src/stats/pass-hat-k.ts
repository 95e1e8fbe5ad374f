/**
 * pass^k: the chance that k independent tries of the same task all pass, estimated from
 * `successes` passes in `n` tries with the unbiased estimator C(c, k) / C(n, k) (tau-bench).
 * Computed as a running product so large n never overflows. Null when k > n: n tries say
 * nothing about k > n tries.
 */
export function passHatK(successes: number, n: number, k: number): number | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new RangeError(`pass^k needs whole numbers 0 <= successes <= n, got ${successes}/${n}`);
  }
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`pass^k needs a whole k >= 1, got ${k}`);
  if (k > n) return null;
  let value = 1;
  for (let i = 0; i < k; i++) {
    value *= (successes - i) / (n - i);
    if (value <= 0) return 0;
  }
  return value;
}
