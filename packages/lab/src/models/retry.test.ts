import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProviderError } from './provider-error.js';
import { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, withRetries } from './retry.js';
import { testRuntime } from './test-support/test-runtime.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1_500);
  });
  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('stays between half and all of the capped exponential ceiling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, random) => {
        const ceiling = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** (retry - 1));
        const delay = backoffDelay(retry, DEFAULT_RETRY_POLICY, () => random);
        return delay >= Math.floor(ceiling / 2) && delay <= ceiling;
      }),
      { numRuns: 200 },
    );
  });
});

describe('withRetries', () => {
  const retryable = () => new ProviderError('E_PROVIDER_HTTP', 'busy', { retryable: true, status: 503 });

  it('gives up after maxAttempts and says so', async () => {
    const runtime = testRuntime();
    let calls = 0;
    const outcome = await withRetries(
      () => {
        calls++;
        return Promise.reject(retryable());
      },
      { policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 }, runtime },
    ).catch((error: unknown) => error);
    expect(calls).toBe(3);
    expect(runtime.sleeps).toHaveLength(2);
    expect(outcome).toMatchObject({ code: 'E_PROVIDER_HTTP', attempts: 3, status: 503 });
    expect((outcome as Error).message).toContain('gave up after 3 attempts');
  });

  it('tells the runtime of every Retry-After wait, and of no back-off', async () => {
    const told: number[] = [];
    const runtime = { ...testRuntime(), onRetryAfter: (ms: number) => told.push(ms) };
    let calls = 0;
    await withRetries(
      () => {
        calls++;
        if (calls === 1) return Promise.reject(new ProviderError('E_PROVIDER_HTTP', 'slow down', { retryable: true, status: 429, retryAfterMs: 7_000 }));
        if (calls === 2) return Promise.reject(retryable());
        return Promise.resolve('ok');
      },
      { policy: DEFAULT_RETRY_POLICY, runtime },
    );
    expect(told).toEqual([7_000]);
    expect(runtime.sleeps[0]).toBe(7_000);
  });

  it('passes other errors through untouched', async () => {
    const bug = new TypeError('a bug');
    await expect(withRetries(() => Promise.reject(bug), { policy: DEFAULT_RETRY_POLICY, runtime: testRuntime() })).rejects.toBe(bug);
  });

  it('does not sleep once the caller has cancelled', async () => {
    const runtime = testRuntime();
    const controller = new AbortController();
    const outcome = await withRetries(
      () => {
        controller.abort();
        return Promise.reject(retryable());
      },
      { policy: DEFAULT_RETRY_POLICY, runtime, signal: controller.signal },
    ).catch((error: unknown) => error);
    expect(outcome).toMatchObject({ code: 'E_PROVIDER_ABORTED', retryable: false });
    expect(runtime.sleeps).toEqual([]);
  });
});
