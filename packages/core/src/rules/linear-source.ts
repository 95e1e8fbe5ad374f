import type { ParsedRegexp, Re2Syntax } from './re2-loader.js';

/**
 * A rulebook pattern written for V8's linear-time engine (RegExp flag `l`), with RE2's meaning
 * spelled out: RE2's `\s`, `.`, case folding and classes become explicit code-unit classes, so the
 * JavaScript regex gives re2js's answer (test, first match index and text) on every text `fits`
 * accepts: one without surrogates (there a UTF-16 unit is a code point), and, when `multiline`,
 * one without \r, U+2028 or U+2029 (JavaScript's `^`/`$` under `m` see those as line ends, RE2
 * only \n). Other texts go to re2js.
 */
export interface LinearSource {
  readonly source: string;
  readonly multiline: boolean;
}

/** Whether the translation answers exactly as re2js on this text (see LinearSource). */
export function fitsLinear(text: string, multiline: boolean): boolean {
  return !(multiline ? /[\ud800-\udfff\r\u2028\u2029]/ : /[\ud800-\udfff]/).test(text);
}

/** re2js's parser, when the loaded re2js still has the classes the translation walks. */
export function re2Syntax(found: Partial<Re2Syntax> | undefined): Re2Syntax | undefined {
  if (
    typeof found?.Parser?.parse !== 'function' ||
    typeof found.Regexp?.Op !== 'object' ||
    typeof found.RE2Flags?.PERL !== 'number' ||
    typeof found.RE2Flags.FOLD_CASE !== 'number' ||
    typeof found.RE2Flags.NON_GREEDY !== 'number' ||
    typeof found.Unicode?.simpleFold !== 'function'
  ) {
    return undefined;
  }
  return found as Re2Syntax;
}

/** Why a pattern stays on re2js. */
class Untranslatable extends Error {}

const MAX_BMP = 0xffff;

function unit(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

function literalUnit(code: number): string {
  return /[A-Za-z0-9]/.test(String.fromCharCode(code)) ? String.fromCharCode(code) : unit(code);
}

/** A class of BMP code points, from sorted inclusive [lo, hi] pairs; ranges beyond the BMP cannot meet a text that fits. */
function classOf(ranges: readonly (readonly [number, number])[]): string {
  let body = '';
  for (const [lo, hi] of ranges) {
    if (lo > MAX_BMP) continue;
    const top = Math.min(hi, MAX_BMP);
    body += lo === top ? unit(lo) : `${unit(lo)}-${unit(top)}`;
  }
  return `[${body}]`;
}

function pairs(runes: ArrayLike<number>): [number, number][] {
  const out: [number, number][] = [];
  for (let index = 0; index + 1 < runes.length; index += 2) out.push([runes[index] as number, runes[index + 1] as number]);
  return out;
}

/**
 * The translation, or undefined where it cannot be exact: lookbehind (re2js's extension), a
 * repetition of something that can match empty (JavaScript skips an empty iteration where RE2 takes
 * it, which can change the match text), and `\A`/`\z` mixed with multi-line `^`/`$` (one `m` flag
 * serves both in JavaScript).
 */
export function translateToLinear(source: string, flags: string, syntax: Re2Syntax): LinearSource | undefined {
  const { Op } = syntax.Regexp;
  const { FOLD_CASE, NON_GREEDY, PERL } = syntax.RE2Flags;
  const op = (name: string): number => {
    const value = Op[name];
    if (value === undefined) throw new Untranslatable(name);
    return value;
  };
  const O = {
    NO_MATCH: op('NO_MATCH'),
    EMPTY_MATCH: op('EMPTY_MATCH'),
    LITERAL: op('LITERAL'),
    CHAR_CLASS: op('CHAR_CLASS'),
    ANY_CHAR_NOT_NL: op('ANY_CHAR_NOT_NL'),
    ANY_CHAR: op('ANY_CHAR'),
    BEGIN_LINE: op('BEGIN_LINE'),
    END_LINE: op('END_LINE'),
    BEGIN_TEXT: op('BEGIN_TEXT'),
    END_TEXT: op('END_TEXT'),
    WORD_BOUNDARY: op('WORD_BOUNDARY'),
    NO_WORD_BOUNDARY: op('NO_WORD_BOUNDARY'),
    CAPTURE: op('CAPTURE'),
    STAR: op('STAR'),
    PLUS: op('PLUS'),
    QUEST: op('QUEST'),
    REPEAT: op('REPEAT'),
    CONCAT: op('CONCAT'),
    ALTERNATE: op('ALTERNATE'),
  };
  let lineAnchors = false;
  let textAnchors = false;

  const orbit = (rune: number): number[] => {
    const runes = [rune];
    for (let next = syntax.Unicode.simpleFold(rune); next !== rune; next = syntax.Unicode.simpleFold(next)) {
      // RE2's orbits hold at most four runes; a longer walk means the table is not what it was
      if (runes.length > 8) throw new Untranslatable('case orbit');
      runes.push(next);
    }
    return runes;
  };
  const literal = (rune: number, fold: boolean): string => {
    const runes = (fold ? orbit(rune) : [rune]).filter((each) => each <= MAX_BMP).sort((a, b) => a - b);
    if (runes.length === 0) return '[]';
    if (runes.length === 1) return literalUnit(runes[0] as number);
    return classOf(runes.map((each) => [each, each] as const));
  };
  const nullable = (node: ParsedRegexp): boolean => {
    switch (node.op) {
      case O.CHAR_CLASS:
      case O.ANY_CHAR:
      case O.ANY_CHAR_NOT_NL:
      case O.NO_MATCH:
        return false;
      case O.LITERAL:
        return node.runes.length === 0;
      case O.CAPTURE:
      case O.PLUS:
        return nullable(node.subs[0] as ParsedRegexp);
      case O.REPEAT:
        return node.min === 0 || nullable(node.subs[0] as ParsedRegexp);
      case O.CONCAT:
        return node.subs.every(nullable);
      case O.ALTERNATE:
        return node.subs.some(nullable);
      default:
        // empty match, anchors, boundaries, star and quest match the empty text
        return true;
    }
  };
  // Each emitted piece is an atom (a unit, a class or a group), so a quantifier can follow it.
  const emit = (node: ParsedRegexp): string => {
    switch (node.op) {
      case O.NO_MATCH:
        return '[]';
      case O.EMPTY_MATCH:
        return '(?:)';
      case O.LITERAL: {
        const fold = (node.flags & FOLD_CASE) !== 0;
        const text = Array.from(node.runes, (rune) => literal(rune, fold)).join('');
        return node.runes.length === 1 ? text : `(?:${text})`;
      }
      case O.CHAR_CLASS:
        return classOf(pairs(node.runes));
      case O.ANY_CHAR_NOT_NL:
        return '[^\\n]';
      case O.ANY_CHAR:
        return '[\\s\\S]';
      case O.BEGIN_LINE:
        lineAnchors = true;
        return '^';
      case O.END_LINE:
        lineAnchors = true;
        return '$';
      case O.BEGIN_TEXT:
        textAnchors = true;
        return '^';
      case O.END_TEXT:
        textAnchors = true;
        return '$';
      case O.WORD_BOUNDARY:
        return '\\b';
      case O.NO_WORD_BOUNDARY:
        return '\\B';
      case O.CAPTURE:
        return `(?:${emit(node.subs[0] as ParsedRegexp)})`;
      case O.STAR:
      case O.PLUS:
      case O.QUEST:
      case O.REPEAT: {
        const sub = node.subs[0] as ParsedRegexp;
        if (nullable(sub)) throw new Untranslatable('a repetition of what can match empty');
        const lazy = (node.flags & NON_GREEDY) !== 0 ? '?' : '';
        const count =
          node.op === O.STAR
            ? '*'
            : node.op === O.PLUS
              ? '+'
              : node.op === O.QUEST
                ? '?'
                : node.max === -1
                  ? `{${node.min},}`
                  : node.min === node.max
                    ? `{${node.min}}`
                    : `{${node.min},${node.max}}`;
        // grouped, so that a quantifier around it never reads as its lazy mark (`a{2}?`)
        return `(?:${emit(sub)}${count}${lazy})`;
      }
      case O.CONCAT:
        return `(?:${node.subs.map(emit).join('')})`;
      case O.ALTERNATE:
        return `(?:${node.subs.map(emit).join('|')})`;
      default:
        throw new Untranslatable(`operator ${String(node.op)}`);
    }
  };
  const prefix = (flags.includes('i') ? '(?i)' : '') + (flags.includes('s') ? '(?s)' : '') + (flags.includes('m') ? '(?m)' : '');
  try {
    const translated = emit(syntax.Parser.parse(prefix + source, PERL));
    if (lineAnchors && textAnchors) return undefined;
    return { source: translated, multiline: lineAnchors };
  } catch {
    // Untranslatable, or re2js refuses the pattern (its compile reports that)
    return undefined;
  }
}
