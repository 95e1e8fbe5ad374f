import { HoldfastError } from '@holdfast/core/contract';

export interface ProviderErrorOptions {
  retryable: boolean;
  status?: number;
  attempts?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A model call failed. `retryable` says whether trying again could help (408, 409, 429, 5xx,
 * network errors, timeouts); the runner turns the final one into an `error` verdict with this message.
 * The message never carries a key: adapters redact response bodies before they get here.
 */
export class ProviderError extends HoldfastError {
  readonly retryable: boolean;
  readonly status: number | undefined;
  /** How many calls were made before giving up, when known. */
  readonly attempts: number | undefined;
  /** How long the provider asked us to wait (a `Retry-After` header), already capped. */
  readonly retryAfterMs: number | undefined;

  constructor(code: string, message: string, options: ProviderErrorOptions) {
    super(code, message, { cause: options.cause });
    this.retryable = options.retryable;
    this.status = options.status;
    this.attempts = options.attempts;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Statuses where the same request may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
