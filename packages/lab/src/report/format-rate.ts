import type { Rate } from '@holdfast/core/contract';

/**
 * A whole percent, except where rounding would turn a bound that is not 0 into `0%` (or not 1 into
 * `100%`): a rate of 0/1,672 has an upper bound of 0.2%, and `[0%–0%]` would claim certainty.
 */
function percent(value: number): string {
  const whole = Math.round(value * 100);
  if ((whole === 0 && value > 0) || (whole === 100 && value < 1)) {
    const tenths = Math.round(value * 1000) / 10;
    if (tenths === 0) return '<0.1%';
    if (tenths === 100) return '>99.9%';
    return `${tenths}%`;
  }
  return `${whole}%`;
}

/** `3/16 19% [7–43%]`: every rate with its n and its Wilson 95% interval. */
export function formatRate(rate: Rate): string {
  if (rate.n === 0 || rate.rate === null || rate.low === null || rate.high === null) return `${rate.count}/0 –`;
  return `${rate.count}/${rate.n} ${percent(rate.rate)} [${percent(rate.low)}–${percent(rate.high)}]`;
}
