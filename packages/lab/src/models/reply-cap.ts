import { ProviderError } from './provider-error.js';

/**
 * How many bytes a provider's answer may take before the call is cut off. A real reply (an action
 * list for one ticket) is tens of kilobytes; a 50 MB body is a model or a proxy gone wrong, and
 * reading it whole costs a gigabyte of memory and a run file no one can open.
 */
export const DEFAULT_MAX_REPLY_BYTES = 1_000_000;

export const REPLY_TOO_LARGE = 'E_REPLY_TOO_LARGE';

/**
 * The answer passed `limit` bytes and was aborted there. Not retryable: the same prompt would most
 * likely do it again. The runner records the arm as `unparseable` ("too large"), not as an error.
 */
export function replyTooLarge(url: string, limit: number): ProviderError {
  return new ProviderError(
    REPLY_TOO_LARGE,
    `the reply from ${url} is too large: it passed ${limit} bytes and was cut off there (raise maxReplyBytes to allow more)`,
    {
      retryable: false,
    },
  );
}

/** Whether `error` is a reply cut off at its size cap. */
export function isReplyTooLarge(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.code === REPLY_TOO_LARGE;
}

/** The error node:http's reader rejects with when a body passes its cap; callJson turns it into `replyTooLarge`. */
export class BodyTooLargeError extends Error {
  readonly code = 'E_BODY_TOO_LARGE';

  constructor(readonly limit: number) {
    super(`the response body passed ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}
