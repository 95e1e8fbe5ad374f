// Commas, whitespace and fence markers (``` with a language tag). It cannot fail, only stop, so
// it never backtracks: one pass over the gap.
const GLUE = /(?:[\s,]+|`{3,}[A-Za-z0-9_+.-]*)*/y;

/**
 * True when nothing but commas, whitespace and fence markers lies in [from, to) of the text: the
 * glue around JSON values a reply that is only JSON may have. Reads the text in place, no copy.
 */
export function onlyGlueBetween(text: string, from: number, to: number): boolean {
  GLUE.lastIndex = from;
  return from + (GLUE.exec(text)?.[0].length ?? 0) >= to;
}
