import { describe, expect, it } from 'vitest';
import { toRate } from '@holdfast/core/stats';
import { formatRate } from './format-rate.js';

describe('formatRate', () => {
  it('prints count, n, rate and the Wilson interval in whole percents', () => {
    expect(formatRate(toRate(3, 16))).toMatch(/^3\/16 19% \[\d+%–\d+%\]$/);
    expect(formatRate(toRate(0, 0))).toBe('0/0 –');
  });

  it('never rounds an interval bound that is not 0 down to 0% (or up to 100%) at large n', () => {
    const none = formatRate(toRate(0, 1672));
    expect(none).toBe('0/1672 0% [0%–0.2%]');
    const all = formatRate(toRate(1672, 1672));
    expect(all).toBe('1672/1672 100% [99.8%–100%]');
    expect(formatRate(toRate(1, 1672))).toMatch(/^1\/1672 0.1% \[<0.1%–0.3%\]$/);
  });
});
