import { maskSecret } from './mask.js';

/** A base64 (or base64url) run long enough to carry a credential: 16 decoded bytes or more. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;

/** How many runs one text is decoded for, so a megabyte of base64 costs a bounded amount of work. */
const MAX_RUNS = 256;

function decoded(run: string): string | undefined {
  const text = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  // Binary data decodes to replacement characters and controls: not text that could hold a key.
  // eslint-disable-next-line no-control-regex -- controls are what binary data decodes to
  return /[\uFFFD\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : text;
}

/**
 * Masks base64-encoded credentials: each long base64 run is decoded and handed to `hasSecret`, and a
 * run whose decoded text holds one is replaced by its mask. A key the model wrote encoded (`echo
 * c2tf... | base64 -d`) is as much a key as the plain one; a record must not keep either.
 */
export async function redactEncodedSecrets(text: string, hasSecret: (decoded: string) => Promise<boolean>): Promise<string> {
  const runs = [...text.matchAll(BASE64_RUN)].slice(0, MAX_RUNS);
  if (runs.length === 0) return text;
  let redacted = '';
  let at = 0;
  for (const run of runs) {
    const plain = decoded(run[0]);
    if (plain === undefined || !(await hasSecret(plain))) continue;
    redacted += text.slice(at, run.index) + maskSecret(run[0]);
    at = run.index + run[0].length;
  }
  return at === 0 ? text : redacted + text.slice(at);
}
