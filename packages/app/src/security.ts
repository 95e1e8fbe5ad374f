import { createHash, timingSafeEqual } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** True when `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The Host header values this server answers: the loopback names and, when bound beyond loopback,
 * the bound name (or every interface address for a wildcard bind). Anything else is a page on
 * another site that resolved its own name to us (DNS rebinding), and is refused.
 */
export function allowedHostHeaders(host: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (WILDCARD_HOSTS.has(host)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(bracketed(address.address));
    }
  } else {
    names.add(bracketed(host.toLowerCase()));
  }
  return new Set([...names].map((name) => `${name}:${port}`));
}

/** Refuses any request whose Host header is not one of `allowed()` (read per request: the port is known only after listen). */
export function hostGuard(allowed: () => ReadonlySet<string>) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined || !allowed().has(host)) {
      next(new ApiError(403, 'E_HOST', `Host "${host ?? ''}" is not this server; open it as http://127.0.0.1 on its port.`));
      return;
    }
    next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests must come from our own page: an Origin equal to `http://<Host>` (a
 * missing Origin is refused too) and a JSON body, which a cross-site form cannot send without a
 * CORS preflight that we never grant.
 */
export function sameOriginGuard(request: Request, _response: Response, next: NextFunction): void {
  if (SAFE_METHODS.has(request.method)) {
    next();
    return;
  }
  const origin = request.headers.origin;
  const own = `http://${request.headers.host ?? ''}`;
  if (origin === undefined || origin.toLowerCase() !== own.toLowerCase()) {
    next(new ApiError(403, 'E_ORIGIN', `a ${request.method} must come from this app's own page (Origin ${own}), got ${origin ?? 'no Origin'}.`));
    return;
  }
  if (!request.is('application/json')) {
    next(new ApiError(415, 'E_CONTENT_TYPE', `a ${request.method} needs a JSON body (Content-Type: application/json).`));
    return;
  }
  next();
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Compares in constant time; hashing first hides the length of the expected token too. */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
