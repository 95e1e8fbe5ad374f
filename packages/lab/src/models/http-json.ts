import type { z } from 'zod';
import { ProviderError, isRetryableStatus } from './provider-error.js';
import { redact, snippet } from './redact.js';
import { parseRetryAfter } from './retry.js';
import type { AdapterRuntime } from './model-adapter.js';
import { safeParseJson } from '@holdfast/core/contract';
import { BodyTooLargeError, DEFAULT_MAX_REPLY_BYTES, replyTooLarge } from './reply-cap.js';

export interface JsonCall {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** The answer's size cap in bytes (default DEFAULT_MAX_REPLY_BYTES); past it the call fails with E_REPLY_TOO_LARGE. */
  readonly maxBytes?: number | undefined;
  /** Values to scrub from anything that ends up in an error message. */
  readonly secrets: readonly (string | undefined)[];
}

/** The innermost error code of a failed fetch (undici nests it): ECONNREFUSED, UND_ERR_SOCKET… */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function failure(error: unknown, call: JsonCall, timeout: { readonly aborted: boolean }): ProviderError {
  if (call.signal?.aborted) {
    return new ProviderError('E_PROVIDER_ABORTED', 'the call was cancelled', { retryable: false, cause: error });
  }
  if (timeout.aborted) {
    return new ProviderError('E_PROVIDER_TIMEOUT', `no answer from ${call.url} within ${call.timeoutMs} ms`, {
      retryable: true,
      cause: error,
    });
  }
  const code = networkCode(error) ?? (error instanceof Error ? error.message : 'unknown error');
  return new ProviderError('E_PROVIDER_NETWORK', `could not reach ${call.url}: ${redact(code, call.secrets)}`, {
    retryable: true,
    cause: error,
  });
}

/**
 * One HTTP call that answers JSON. Every failure becomes a ProviderError that knows whether it is
 * retryable; the per-call timeout and the caller's signal both cancel it, and are told apart.
 */
export async function callJson(call: JsonCall, runtime: AdapterRuntime): Promise<unknown> {
  // One controller and a plain timer: Node 20's AbortSignal.timeout/any are costly per call.
  const controller = new AbortController();
  const timeout = { aborted: false };
  const stopClock = runtime.deadline(() => {
    timeout.aborted = true;
    controller.abort();
  }, call.timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (call.signal?.aborted) controller.abort();
  else call.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const signal = controller.signal;
  const maxBytes = call.maxBytes ?? DEFAULT_MAX_REPLY_BYTES;
  let status: number;
  let text: string;
  let retryAfter: string | null;
  try {
    const response = await runtime.fetch(call.url, {
      method: call.method ?? 'POST',
      headers: { ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers },
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      signal,
      maxBytes,
    });
    status = response.status;
    retryAfter = response.headers.get('retry-after');
    text = await response.text();
    // A fetch that does not honour maxBytes (the global one) is still held to it, after the fact.
    if (text.length > maxBytes || Buffer.byteLength(text) > maxBytes) throw new BodyTooLargeError(maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      controller.abort();
      throw replyTooLarge(call.url, maxBytes);
    }
    throw failure(error, call, timeout);
  } finally {
    stopClock();
    call.signal?.removeEventListener('abort', onCallerAbort);
  }
  if (status < 200 || status >= 300) {
    const retryAfterMs = parseRetryAfter(retryAfter, runtime.now());
    const body = snippet(redact(text, call.secrets));
    throw new ProviderError('E_PROVIDER_HTTP', `${call.url} answered HTTP ${status}${body ? `: ${body}` : ''}`, {
      retryable: isRetryableStatus(status),
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  const json = safeParseJson(text);
  if (json.ok) return json.value;
  throw new ProviderError(
    'E_PROVIDER_RESPONSE',
    `${call.url} answered HTTP ${status} with a body that is not JSON: ${snippet(redact(text, call.secrets), 120)}`,
    {
      retryable: false,
      status,
      cause: json.cause,
    },
  );
}

/** A provider's JSON body checked against `schema`; a body of another shape is a non-retryable ProviderError. */
export function parseProviderBody<S extends z.ZodType>(schema: S, body: unknown, url: string, secrets: readonly (string | undefined)[]): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError('E_PROVIDER_RESPONSE', `${url} answered with an unexpected shape: ${snippet(redact(JSON.stringify(body), secrets), 200)}`, {
      retryable: false,
      cause: parsed.error,
    });
  }
  return parsed.data;
}
