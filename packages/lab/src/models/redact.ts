/** Keys shorter than this are not worth hunting for (and would mangle ordinary text). */
const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of each secret with `[redacted]`. Providers echo keys back in 401
 * bodies ("Incorrect API key provided: sk-..."), and those bodies end up in error messages.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
    result = result.split(secret).join('[redacted]');
  }
  return result;
}

/** The first `limit` characters of a response body, on one line, for an error message. */
export function snippet(text: string, limit = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

/**
 * The last `limit` characters on one line (stderr's end says what went wrong). The first, cut word
 * is dropped so half a key cannot survive the cut where redaction would not recognise it.
 */
export function tailSnippet(text: string, limit = 500): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(flat.length - limit);
  const space = cut.indexOf(' ');
  return `…${space === -1 ? '' : cut.slice(space + 1)}`;
}
