import type { Rate } from '../contract/index.js';

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** `3/16 19% [7–43%]`: every rate with its n and its Wilson 95% interval. */
export function formatRate(rate: Rate): string {
  if (rate.n === 0 || rate.rate === null || rate.low === null || rate.high === null) return `${rate.count}/0 –`;
  return `${rate.count}/${rate.n} ${percent(rate.rate)} [${percent(rate.low)}–${percent(rate.high)}]`;
}
