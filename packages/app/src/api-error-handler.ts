import type { ErrorRequestHandler, Response } from 'express';
import { InputError } from '@holdfast/core/contract';
import type { ApiError as ApiErrorBody } from '@holdfast/core/contract';
import { ApiError } from './api-error.js';
import { clientErrorOf } from './client-error.js';

function sendError(response: Response, status: number, code: string, message: string, retryAfterSeconds?: number): void {
  const body: ApiErrorBody = { error: { code, message } };
  if (retryAfterSeconds !== undefined) response.set('Retry-After', String(retryAfterSeconds));
  response.status(status).json(body);
}

/**
 * Every failure answered as `{ error: { code, message } }`: the API's own refusals and bad input
 * with their status, the client's mistakes (`bodyLimit` names the JSON size limit) as 4xx, anything
 * else as a 500 whose details go to the server log only.
 */
export function apiErrorHandler(log: (line: string) => void, bodyLimit: string): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    if (error instanceof ApiError) return sendError(response, error.status, error.code, error.message, error.retryAfterSeconds);
    if (error instanceof InputError) return sendError(response, 400, error.code, error.message);
    const refusal = clientErrorOf(error, bodyLimit);
    if (refusal !== undefined) return sendError(response, refusal.status, refusal.code, refusal.message);
    log(`holdfast serve: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    sendError(response, 500, 'E_INTERNAL', 'holdfast hit an internal error; the server log has the details.');
  };
}
