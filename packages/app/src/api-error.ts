import { HoldfastError } from '@holdfast/core/contract';

/** A refusal the API answers with `status` and `{ error: { code, message } }`. */
export class ApiError extends HoldfastError {
  readonly status: number;
  /** Sent as `Retry-After` (seconds) with a 429: when asking again may succeed. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: string, message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(code, message, options);
    this.status = status;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}
