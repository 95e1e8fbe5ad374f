export type JsonResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string; readonly cause: unknown };

/**
 * The one place untrusted text meets `JSON.parse`. Never throws: a syntax error, or a stack
 * overflow on pathological nesting, comes back as a result with the reason.
 */
export function safeParseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), cause: error };
  }
}

/**
 * The value the text holds, or undefined when it is not JSON: for readers to whom "not JSON" and
 * "not the expected shape" are the same answer (a torn line, a foreign message), checked next.
 */
export function jsonOrUndefined(text: string): unknown {
  const parsed = safeParseJson(text);
  return parsed.ok ? parsed.value : undefined;
}
