/** Deeper than any reply nests (reply → actions → action); deeper text is not parsed whole nor repaired. */
export const MAX_DEPTH = 64;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * Every `{…}` and `[…]` span of a text, in order of their opening bracket (so a span's children
 * follow it). `ends[i]` is the index of the closing bracket, or -1 when span i never closed.
 */
export interface BracketSpans {
  /** How many spans were found; the arrays may be longer. */
  readonly count: number;
  readonly starts: Int32Array;
  /** Index of the closing bracket of span i, or -1 when it never closed. */
  readonly ends: Int32Array;
  /** Nesting depth inside span i (1 for `{}`), so pathologically deep spans can be skipped unparsed. */
  readonly depths: Int32Array;
}

/**
 * One string-aware pass over prose that may contain JSON. Outside any bracket a quote is prose
 * (an apostrophe, a quotation) and is ignored; inside one, JSON string rules apply, so a brace in
 * a string literal does not count and `\"` does not end the string. A closing bracket that does
 * not match the innermost open one closes the nearest open one of its kind (the brackets between
 * are left unclosed), or is ignored when there is none: prose brackets must not derail the scan.
 * O(n) time: each bracket is pushed and popped at most once. Spans are in order of their opening
 * bracket, so a span's children follow it.
 */
export function scanBracketSpans(text: string): BracketSpans {
  // Sized once, to the openers the text holds. Grown by doubling, the arrays for a megabyte of `[`
  // allocated, zeroed and copied about 64 MB of fresh memory per scan against 4 MB for 100 KB, and
  // parsing it took 10.5-12× as long as 100 KB of it (9.6-10.4× sized once). Counting costs about
  // 5 % of a scan of text without brackets.
  const capacity = Math.max(1, countOpeners(text));
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  const depths = new Int32Array(capacity);
  let count = 0;
  // The open spans, innermost last (never more than the spans). A typed array, not a JS array: a
  // run of a million openers pushed onto a JS array cost ~4× the rest of the scan (its backing
  // store is reallocated in large-object space and swept by full GCs).
  const stack = new Int32Array(capacity);
  let height = 0;
  // Open braces and brackets on the stack, so a closer with no opener of its kind is dropped in O(1).
  let openBraces = 0;
  let openBrackets = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      stack[height] = count;
      height += 1;
      starts[count] = index;
      ends[count] = -1;
      depths[count] = 1;
      count += 1;
      if (code === OPEN_BRACE) openBraces += 1;
      else openBrackets += 1;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      const opener = code === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET;
      if ((opener === OPEN_BRACE ? openBraces : openBrackets) === 0) continue;
      for (;;) {
        height -= 1;
        const span = stack[height] as number;
        const kind = text.charCodeAt(starts[span] as number);
        if (kind === OPEN_BRACE) openBraces -= 1;
        else openBrackets -= 1;
        if (height > 0) {
          const parent = stack[height - 1] as number;
          depths[parent] = Math.max(depths[parent] as number, (depths[span] as number) + 1);
        }
        if (kind === opener) {
          ends[span] = index;
          break;
        }
      }
    } else if (code === QUOTE && height > 0) {
      inString = true;
    }
  }
  return { count, starts, ends, depths };
}

/** Every `{` and `[` of the text, in strings or not: at least as many as the scan can open. */
function countOpeners(text: string): number {
  let openers = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) openers += 1;
  }
  return openers;
}

/**
 * The index of the bracket closing the one at `open`, honouring JSON string literals and escapes,
 * or -1 when the text ends first (a truncated reply), a bracket mismatches, or nesting exceeds
 * `maxDepth`.
 */
export function matchBracket(text: string, open: number, maxDepth = Number.POSITIVE_INFINITY): number {
  const stack: number[] = [];
  let inString = false;
  for (let index = open; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      stack.push(code);
      if (stack.length > maxDepth) return -1;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      const expected = code === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET;
      if (stack[stack.length - 1] !== expected) return -1;
      stack.pop();
      if (stack.length === 0) return index;
    }
  }
  return -1;
}

/**
 * Whether brackets nest deeper than `limit` anywhere in the text (JSON string rules). Replies nest
 * a few levels; V8's JSON.parse slows to about a microsecond per level on deep nesting, so such
 * text is not handed to it whole.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) depth -= 1;
  }
  return false;
}
