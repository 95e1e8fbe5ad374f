import type { Rate } from '@holdfast/core/browser';

export { formatRate } from '@holdfast/lab/browser';

/** Whether a rate has an estimate to draw; a rate with n = 0 is shown as "–", never 0%. */
export function hasEstimate(rate: Rate): rate is Rate & { rate: number; low: number; high: number } {
  return rate.n > 0 && rate.rate !== null && rate.low !== null && rate.high !== null;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A countdown such as `1:05`; never negative. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Whether a detail already names its rule first (`R2 SCOPE: …`), so a `R2:` prefix would say it twice. */
export function detailNamesRule(rule: string, detail: string | undefined): boolean {
  return detail !== undefined && (detail.startsWith(`${rule} `) || detail.startsWith(`${rule}:`));
}
