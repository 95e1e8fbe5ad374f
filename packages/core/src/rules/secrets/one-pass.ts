/*
 * One read of a content that finds, at once, every place where one of many short texts can start.
 * Each character is folded to the low five bits of its code (a letter and its other case fold
 * together); the last three folded characters index a 32 KB table of one byte each, which
 * stays in the first-level cache, and a byte that is not 0 sends the position to the probes whose
 * starts fold to those three. A fold only ever costs an extra try: every probe checks its text exactly.
 */

/** What a probe looks for where its first three characters fit. Exactly one of `keyword`, `literal`, `pattern` is set. */
export interface Probe {
  /** The three characters its matches begin with, any case. */
  readonly starts: readonly string[];
  /** The bit (`1 << flag`, flag 0 to 30) a match sets in the read's flags; once set, the probe is not tried again. 0 for a keyword probe. */
  readonly bit: number;
  /** Lower-case ASCII letters matched in any case, each match recorded. */
  readonly keyword: string;
  /** Text matched exactly. */
  readonly literal: string;
  /** Tried sticky at the position. */
  readonly pattern: RegExp | undefined;
}

export function keywordProbe(keyword: string): Probe {
  if (!/^[a-z]{3,}$/.test(keyword)) throw new Error(`a keyword probe needs three or more lower-case letters: ${JSON.stringify(keyword)}`);
  return { starts: [keyword.slice(0, 3)], bit: 0, keyword, literal: '', pattern: undefined };
}

/** The most flags one read can set: they are kept as the bits of one small integer. */
const MAX_FLAGS = 31;

function bitOf(flag: number): number {
  if (!Number.isInteger(flag) || flag < 0 || flag >= MAX_FLAGS) throw new Error(`a probe flag is 0 to ${MAX_FLAGS - 1}: ${flag}`);
  return 1 << flag;
}

export function literalProbe(flag: number, literal: string): Probe {
  return { starts: [literal.slice(0, 3)], bit: bitOf(flag), keyword: '', literal, pattern: undefined };
}

/** `pattern` found where one of `starts` begins (with the `i` flag, in any case). */
export function patternProbe(flag: number, pattern: RegExp, starts: readonly string[]): Probe {
  const sticky = new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, '')}y`);
  return { starts, bit: bitOf(flag), keyword: '', literal: '', pattern: sticky };
}

const THREE_BITS = 15;
const THREE_MASK = (1 << THREE_BITS) - 1;

const fold = (code: number): number => code & 31;

/** Probes indexed by the three folded characters they start with. */
export interface ProbeTable {
  /** For each three folded characters, 0 or one more than the index of its probes in `lists`. */
  readonly slots: Uint8Array;
  readonly lists: readonly (readonly Probe[])[];
}

export function probeTable(probes: readonly Probe[]): ProbeTable {
  const slots = new Uint8Array(1 << THREE_BITS);
  const lists: Probe[][] = [];
  for (const probe of probes) {
    for (const start of probe.starts) {
      if (start.length !== 3) throw new Error(`a probe start is three characters: ${JSON.stringify(start)}`);
      const three = (fold(start.charCodeAt(0)) << 10) | (fold(start.charCodeAt(1)) << 5) | fold(start.charCodeAt(2));
      if (slots[three] === 0) {
        if (lists.length === 255) throw new Error('a probe table holds at most 255 distinct starts');
        lists.push([]);
        slots[three] = lists.length;
      }
      const list = lists[(slots[three] as number) - 1] as Probe[];
      if (!list.includes(probe)) list.push(probe);
    }
  }
  return { slots, lists };
}

/** What one read found: the flags its matches set (bit `1 << flag`), and where each keyword starts and ends (pairs, by rising start). */
export interface PassResult {
  readonly flags: number;
  readonly keywords: Int32Array;
}

const NO_KEYWORDS = new Int32Array(0);
/** Keyword hits are written here and copied out at the end: most contents hold a few or none, and a read allocates only its answer. */
let scratch = new Int32Array(1024);
const MAX_SCRATCH_SIZE = 1 << 16;

function keywordAt(content: string, start: number, keyword: string): boolean {
  // `| 32` maps an ASCII capital to its small letter and nothing else onto a small letter.
  for (let index = 0; index < keyword.length; index++) {
    if ((content.charCodeAt(start + index) | 32) !== keyword.charCodeAt(index)) return false;
  }
  return true;
}

export function readOnce(content: string, table: ProbeTable): PassResult {
  const { slots, lists } = table;
  let flags = 0;
  let keywords = scratch;
  let recorded = 0;
  const length = content.length;
  let three = (fold(content.charCodeAt(0)) << 5) | fold(content.charCodeAt(1));
  for (let end = 2; end < length; end++) {
    three = ((three << 5) | fold(content.charCodeAt(end))) & THREE_MASK;
    const slot = slots[three] as number;
    if (slot === 0) continue;
    const start = end - 2;
    for (const probe of lists[slot - 1] as readonly Probe[]) {
      if (probe.keyword !== '') {
        if (!keywordAt(content, start, probe.keyword)) continue;
        if (recorded === keywords.length) {
          const grown = new Int32Array(recorded * 2);
          grown.set(keywords);
          keywords = grown;
        }
        keywords[recorded++] = start;
        keywords[recorded++] = start + probe.keyword.length;
      } else if ((flags & probe.bit) === 0) {
        const pattern = probe.pattern;
        if (pattern === undefined) {
          if (content.startsWith(probe.literal, start)) flags |= probe.bit;
        } else {
          pattern.lastIndex = start;
          if (pattern.test(content)) flags |= probe.bit;
        }
      }
    }
  }
  if (recorded === 0) return { flags, keywords: NO_KEYWORDS };
  // A grown scratch is kept for the next read, unless a hostile content grew it to megabytes.
  if (keywords.length <= MAX_SCRATCH_SIZE) scratch = keywords;
  return { flags, keywords: keywords.slice(0, recorded) };
}
