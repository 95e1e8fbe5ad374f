const MAX_SHOWN = 4;

/**
 * A short prefix and an ellipsis. At most a quarter of the value is shown, so even a short
 * password is never readable from a report, and the whole value never is.
 */
export function maskSecret(value: string): string {
  const shown = Math.min(MAX_SHOWN, Math.floor(value.length / 4));
  return `${value.slice(0, shown)}…`;
}
