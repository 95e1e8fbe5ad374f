/** Base of every holdfast error: a stable `code` scripts can match, and the `cause` kept. */
export class HoldfastError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Input a person gave us (a file, a flag, a rulebook) is wrong; the message says what to do. */
export class InputError extends HoldfastError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
