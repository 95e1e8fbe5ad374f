import { HoldfastError } from '../contract/index.js';

/** A refusal the API answers with `status` and `{ error: { code, message } }`. */
export class ApiError extends HoldfastError {
  readonly status: number;

  constructor(status: number, code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.status = status;
  }
}
