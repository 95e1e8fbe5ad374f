import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';

/** Body-parser's error types, by what the client got wrong. */
const BODY_ERRORS: Readonly<Record<string, readonly [number, string, string]>> = {
  'entity.parse.failed': [400, 'E_JSON', 'the body is not valid JSON.'],
  'encoding.unsupported': [
    415,
    'E_CONTENT_ENCODING',
    "the body's Content-Encoding is not one this server reads (send it uncompressed, or as gzip, deflate or br).",
  ],
  'charset.unsupported': [415, 'E_CHARSET', "the body's charset is not one this server reads: send JSON as UTF-8."],
  'request.aborted': [400, 'E_BODY', 'the request was aborted before its body arrived.'],
  'request.size.invalid': [400, 'E_BODY', 'the body is not as long as its Content-Length says.'],
};

/** The charsets a JSON body may be declared in (RFC 8259: JSON exchanged between systems is UTF-8). */
const JSON_CHARSETS = new Set(['utf-8', 'utf8']);

/**
 * Refuses a body declared in a charset other than UTF-8 before it is read: decoding it with an
 * unknown or exotic charset fails inside the body parser, which is the client's fault, not the server's.
 */
export function requireUtf8Body(request: Request, _response: Response, next: NextFunction): void {
  const contentType = request.headers['content-type'];
  const charset = contentType === undefined ? undefined : /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1];
  if (charset !== undefined && !JSON_CHARSETS.has(charset.toLowerCase())) {
    next(new ApiError(415, 'E_CHARSET', `the body is declared as charset "${charset.slice(0, 40)}"; send JSON as UTF-8.`));
    return;
  }
  next();
}

/**
 * The refusal for an error that is the client's fault (a bad percent-escape in the path, a body
 * that does not decompress or decode, a body too large), or undefined for a real internal error.
 */
export function clientErrorOf(error: unknown, bodyLimit: string): ApiError | undefined {
  if (error instanceof URIError)
    return new ApiError(
      400,
      'E_BAD_ESCAPE',
      'the path holds a percent-escape that is not valid UTF-8 (e.g. "%E0%A4%A"); encode names with encodeURIComponent.',
    );
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, code } = error as { type?: unknown; status?: unknown; code?: unknown };
  if (type === 'entity.too.large') return new ApiError(413, 'E_TOO_LARGE', `the body is larger than ${bodyLimit}.`);
  const known = typeof type === 'string' ? BODY_ERRORS[type] : undefined;
  if (known !== undefined) return new ApiError(known[0], known[1], known[2]);
  // zlib's own errors (Z_DATA_ERROR, ERR__ZLIB_…, brotli's) for a body that says gzip/deflate/br but is not.
  if (typeof code === 'string' && (code.startsWith('Z_') || code.includes('ZLIB') || code.includes('BROTLI'))) {
    return new ApiError(400, 'E_CONTENT_ENCODING', 'the body does not decompress as its Content-Encoding says.');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError(status, 'E_BAD_REQUEST', 'the request is malformed.');
  return undefined;
}
