export type JsonResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * The one place untrusted text meets `JSON.parse`. Never throws: a syntax error, or a stack
 * overflow on pathological nesting, comes back as a result.
 */
export function safeParseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
