let parsed = 0;

/**
 * How much source text (UTF-16 code units) this process has parsed into syntax trees. A tree is native
 * memory, freed only when its small JavaScript handle is collected, so a long reader (verify) asks for a
 * collection after so much parsing rather than after so much reading: text no rule parsed left no tree.
 */
export function parsedTextLength(): number {
  return parsed;
}

/** Counts a parse of `length` code units; called by each place that asks ast-grep for a tree. */
export function countParsedText(length: number): void {
  parsed += length;
}
