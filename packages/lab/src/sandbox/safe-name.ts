/** A task or round id as one safe path segment: anything outside [A-Za-z0-9._-] becomes `_`, at most 120 characters. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}
