import type { FoldedString } from './fold-strings.js';

/*
 * Constant strings that the TypeScript folder (fold-strings.ts) does not parse, read from the text
 * in one pass: runs of quoted literals joined by `+` in the languages that join strings that way
 * (Python, Go, Java, Kotlin, C#, Swift, Ruby, Scala, Groovy, Dart), Python's implicit concatenation of
 * adjacent literals, and `String.fromCharCode(…)` of integer literals in any language that has it.
 * Only literals are folded: a run that reaches a name, a call or an f-string stops there.
 */

/** Languages that join strings with `+` (TypeScript and JavaScript are folded on a syntax tree instead; data files never join). */
const JOINING = new Set(['py', 'pyi', 'go', 'java', 'kt', 'kts', 'cs', 'swift', 'rb', 'scala', 'groovy', 'gradle', 'dart']);
/** Where two literals side by side are one string (`"AK" "IA…"`): Python. */
const IMPLICIT = new Set(['py', 'pyi']);
/** Shorter than any credential a detector reports: not worth a second scan. */
const MIN_VALUE = 8;
const MAX_VALUE = 32 * 1024;
const MAX_FOLDS = 2_048;
/** Blanks between the parts of a run: spaces, line ends, and a line continuation. */
const MAX_GAP = 256;

function extensionOf(filePath: string): string {
  const dot = filePath.lastIndexOf('.');
  return dot === -1 ? '' : filePath.slice(dot + 1).toLowerCase();
}

/** A literal that starts at `at` (a quote), on one line: its value and where it ends, or undefined. */
function literalAt(content: string, at: number): { value: string; end: number } | undefined {
  const quote = content[at];
  let value = '';
  for (let index = at + 1; index < content.length; index++) {
    const character = content[index] as string;
    if (character === '\n') return undefined;
    if (character === quote) return { value, end: index + 1 };
    if (character === '\\') {
      const next = content[index + 1];
      if (next === undefined || next === '\n') return undefined;
      value += next === quote || next === '\\' ? next : `\\${next}`;
      index++;
    } else value += character;
  }
  return undefined;
}

/** After a literal, where the next part of the run starts (past `+` and blanks), or undefined when the run ends. */
function nextPart(content: string, from: number, implicit: boolean): number | undefined {
  let index = from;
  let joined = false;
  const limit = Math.min(content.length, from + MAX_GAP);
  for (; index < limit; index++) {
    const character = content[index] as string;
    if (character === ' ' || character === '\t' || character === '\n' || character === '\r' || character === '\\') continue;
    if (character === '+' && !joined) {
      joined = true;
      continue;
    }
    break;
  }
  const character = content[index];
  if (character !== '"' && character !== "'") return undefined;
  return joined || implicit ? index : undefined;
}

/** Runs of two or more quoted literals joined by `+` (or side by side in Python), outside TypeScript and JavaScript. */
export function foldLiteralRuns(content: string, filePath: string): FoldedString[] {
  const extension = extensionOf(filePath);
  if (!JOINING.has(extension)) return [];
  const implicit = IMPLICIT.has(extension);
  if (!implicit && !content.includes('+')) return [];
  const found: FoldedString[] = [];
  for (let index = 0; index < content.length && found.length < MAX_FOLDS; index++) {
    const character = content[index];
    if (character !== '"' && character !== "'") continue;
    const first = literalAt(content, index);
    if (first === undefined) continue;
    let value = first.value;
    let end = first.end;
    let parts = 1;
    for (let next = nextPart(content, end, implicit); next !== undefined && value.length <= MAX_VALUE; next = nextPart(content, end, implicit)) {
      const part = literalAt(content, next);
      if (part === undefined) break;
      value += part.value;
      end = part.end;
      parts++;
    }
    if (parts > 1 && value.length >= MIN_VALUE && value.length <= MAX_VALUE) found.push({ start: index, end, value, form: 'concatenation' });
    index = end - 1;
  }
  return found;
}

const CHAR_CODES = /String\.fromCharCode\(\s*((?:0x[0-9a-fA-F]{1,6}|\d{1,7})(?:\s*,\s*(?:0x[0-9a-fA-F]{1,6}|\d{1,7}))*)\s*,?\s*\)/g;

/** `String.fromCharCode(65, 75, …)` with integer literals only: the string it makes. */
export function foldCharCodes(content: string): FoldedString[] {
  if (!content.includes('fromCharCode(')) return [];
  const found: FoldedString[] = [];
  for (const match of content.matchAll(CHAR_CODES)) {
    const codes = (match[1] as string).split(',').map((code) => Number(code.trim()));
    if (codes.length < MIN_VALUE || codes.some((code) => code > 0x10ffff)) continue;
    const value = String.fromCodePoint(...codes);
    found.push({ start: match.index, end: match.index + match[0].length, value, form: 'char-codes' });
    if (found.length >= MAX_FOLDS) break;
  }
  return found;
}
