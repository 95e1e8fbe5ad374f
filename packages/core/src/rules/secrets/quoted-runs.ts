/** Quoted literals side by side, joined by `+` or `,` (`'AK' + 'IA…'`, `['AK', 'IA…'].join('')`), as one value. */
export interface QuotedRun {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

const MAX_LITERAL = 1024;
const MAX_RUNS = 64;
const JOINER = /^\s*[+,]\s*$/;

/**
 * Runs of two or more quoted literals joined by `+` or `,`, in any language and inside any other
 * quoting: each quote character is paired on its own, so `node -e "k = 'a' + 'b'"` still shows its
 * single-quoted run. A text reading, for redaction only: where a parser is at hand, R1 folds instead.
 */
export function quotedRuns(text: string): QuotedRun[] {
  const runs: QuotedRun[] = [];
  for (const quote of ["'", '"', '`']) {
    const literals: { open: number; close: number }[] = [];
    for (let open = text.indexOf(quote); open !== -1;) {
      let close = open + 1;
      while (close < text.length && close - open <= MAX_LITERAL && text[close] !== quote && text[close] !== '\n') close += text[close] === '\\' ? 2 : 1;
      if (text[close] !== quote) {
        open = text.indexOf(quote, open + 1);
        continue;
      }
      literals.push({ open, close });
      open = text.indexOf(quote, close + 1);
    }
    let first = 0;
    for (let index = 1; index <= literals.length; index++) {
      const previous = literals[index - 1];
      const current = literals[index];
      if (current !== undefined && previous !== undefined && JOINER.test(text.slice(previous.close + 1, current.open))) continue;
      if (index - first >= 2 && runs.length < MAX_RUNS) {
        const parts = literals.slice(first, index);
        runs.push({
          start: (parts[0] as { open: number }).open,
          end: (parts[parts.length - 1] as { close: number }).close + 1,
          value: parts.map((part) => text.slice(part.open + 1, part.close)).join(''),
        });
      }
      first = index;
    }
  }
  return runs.sort((left, right) => left.start - right.start);
}
