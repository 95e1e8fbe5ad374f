import { ProviderError } from './provider-error.js';
import type { AdapterRuntime } from './model-adapter.js';
import { DEFAULT_MAX_ATTEMPTS } from './runtime.js';

export interface RetryPolicy {
  /** Total calls, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A provider asking for a longer pause than this gets this; a run should not hang for an hour. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Reads a `Retry-After` header: delta seconds or an HTTP date. Returns milliseconds (never negative),
 * or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date names its month; without this, Date.parse reads "-5" as the year -5.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * Exponential backoff with jitter: the n-th retry waits between half and all of base·2^(n-1), capped.
 * Half-jitter keeps a floor so a burst of 429s does not come straight back.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

function abortedError(cause: unknown, attempts: number): ProviderError {
  return new ProviderError('E_PROVIDER_ABORTED', 'the call was cancelled', { retryable: false, attempts, cause });
}

function withAttempts(error: ProviderError, attempts: number, gaveUp: boolean): ProviderError {
  const message = gaveUp ? `${error.message} (gave up after ${attempts} attempts)` : error.message;
  return new ProviderError(error.code, message, {
    retryable: error.retryable,
    ...(error.status !== undefined ? { status: error.status } : {}),
    attempts,
    cause: error,
  });
}

/**
 * Calls `attempt` until it succeeds, throws a non-retryable ProviderError, or the policy's attempts
 * run out. Waits honour `Retry-After` (capped) and otherwise back off with jitter.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: { policy: RetryPolicy; runtime: AdapterRuntime; signal?: AbortSignal | undefined },
): Promise<{ value: T; attempts: number }> {
  const { policy, runtime, signal } = options;
  for (let made = 1; ; made++) {
    try {
      return { value: await attempt(), attempts: made };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (!error.retryable) throw withAttempts(error, made, false);
      if (made >= policy.maxAttempts) throw withAttempts(error, made, policy.maxAttempts > 1);
      const wait = error.retryAfterMs !== undefined ? Math.min(error.retryAfterMs, policy.maxRetryAfterMs) : backoffDelay(made, policy, runtime.random);
      if (signal?.aborted) throw abortedError(signal.reason, made);
      if (error.retryAfterMs !== undefined) runtime.onRetryAfter?.(wait);
      try {
        await runtime.sleep(wait, signal);
      } catch (sleepError) {
        throw abortedError(sleepError, made);
      }
    }
  }
}
