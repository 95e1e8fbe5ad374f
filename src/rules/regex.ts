import { RE2JS } from 're2js';

/**
 * A rulebook regular expression, compiled with RE2 semantics (re2js): matching takes time linear in
 * the input whatever the pattern, so a pattern written to backtrack (`^(a|aa)*$`) cannot stall the
 * gate on model output. The price is RE2's syntax: no backreferences and no lookaround.
 */
export interface Pattern {
  readonly source: string;
  test(text: string): boolean;
  /** The leftmost match: its UTF-16 offset (as String.prototype.indexOf counts) and its text. */
  find(text: string): { index: number; text: string } | undefined;
}

export type CompiledPattern = { ok: true; pattern: Pattern } | { ok: false; reason: string; instead: string };

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

/** What to write instead of the constructs RE2 refuses, by the piece of syntax that was refused. */
function advice(reason: string): string {
  if (/\(\?[=!]|\(\?<[=!]/.test(reason)) {
    return 'RE2 has no lookahead or lookbehind: match the surrounding text itself, or split the rule into two patterns';
  }
  if (/\\[1-9k]/.test(reason)) return 'RE2 has no backreferences: spell the repeated text out, or match it with a character class';
  if (/\\u/.test(reason)) return 'write a Unicode character as \\x{00e9} (RE2) rather than \\u00e9';
  return 'write an RE2 regular expression (JavaScript syntax without lookaround or backreferences), e.g. "console\\\\.log\\\\s*\\\\("';
}

export function compilePattern(source: string, flags: string): CompiledPattern {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) return { ok: false, reason: `unknown flag "${flag}"`, instead: 'use only the flags i, m, s and u' };
    bits |= bit;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, bits);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = message.replace(/^error parsing regexp:\s*/, '');
    return { ok: false, reason, instead: advice(reason) };
  }
  return {
    ok: true,
    pattern: {
      source,
      test: (text) => compiled.matcher(text).find(),
      find: (text) => {
        const matcher = compiled.matcher(text);
        return matcher.find() ? { index: matcher.start(), text: matcher.group() ?? '' } : undefined;
      },
    },
  };
}

/**
 * The patterns of one rule field. The rulebook parser refuses a pattern that does not compile, so
 * `broken` is only ever set for a rulebook that skipped it (a cached or recorded one); the check
 * then fails closed.
 */
export function compilePatterns(sources: readonly string[], flags: string): { patterns: Pattern[]; broken: string | undefined } {
  const patterns: Pattern[] = [];
  let broken: string | undefined;
  for (const source of sources) {
    const compiled = compilePattern(source, flags);
    if (compiled.ok) patterns.push(compiled.pattern);
    else broken ??= compiled.reason;
  }
  return { patterns, broken };
}

/** The earliest match of any of the patterns, or undefined. */
export function firstMatch(content: string, patterns: readonly Pattern[]): { index: number; text: string } | undefined {
  let best: { index: number; text: string } | undefined;
  for (const pattern of patterns) {
    const match = pattern.find(content);
    if (match !== undefined && (best === undefined || match.index < best.index)) best = match;
  }
  return best;
}
