import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { meetsNeeds, requiredNeeds } from './required-literals.js';

/**
 * A rulebook regular expression, matched with RE2 semantics: matching takes time linear in the
 * input whatever the pattern, so a pattern written to backtrack (`^(a|aa)*$`) cannot stall the gate
 * on model output. The price is RE2's syntax: no backreferences and no lookaround. It runs on re2js,
 * loaded the way any package is, and only when a text could match (see mayMatch).
 */
export interface Pattern {
  readonly source: string;
  test(text: string): boolean;
  /** The leftmost match: its UTF-16 offset (as String.prototype.indexOf counts) and its text. */
  find(text: string): { index: number; text: string } | undefined;
  /**
   * False when the text surely does not match, known without RE2: it lacks literal text every match
   * holds, or an earlier process found it does not match. True is not an answer (ask `test`).
   */
  mayMatch?(text: string): boolean;
}

export type CompiledPattern = { ok: true; pattern: Pattern } | { ok: false; reason: string; instead: string };

/** A pattern that turned out not to compile when it was first needed (a rulebook that skipped the loader). */
export class PatternError extends Error {
  readonly code = 'E_PATTERN';
}

// re2js costs more to load than a whole hook decision otherwise does, so it is loaded only when a
// pattern really has to run: most content lacks the literal text a pattern needs (see mayMatch).
let engine: typeof import('re2js') | undefined;
function re2(): typeof import('re2js') {
  engine ??= createRequire(import.meta.url)('re2js') as typeof import('re2js');
  return engine;
}

function patternKey(source: string, flags: string): string {
  return `${flags}\0${source}`;
}

/**
 * Answers of `test` for short texts (commands, not file contents), by pattern and flags. A live gate is
 * one process per tool call, and the commands a commit is judged against are mostly ones an earlier
 * call already matched: with their answers kept between processes (gate/pattern-answers.ts), RE2 is
 * loaded only for a command no call has matched before.
 */
const answers = new Map<string, boolean>();
let learnedAnswers = false;
const MAX_ANSWER_TEXT = 512;
const MAX_ANSWERS = 1024;

function answerKey(source: string, flags: string, text: string): string {
  return `${patternKey(source, flags)}\0${text}`;
}

let answerSource: (() => Iterable<readonly [string, boolean]>) | undefined;

/**
 * Where answers kept by earlier processes come from (oldest first). It is read only when a pattern
 * first needs an answer: most hook calls match no command, and they do not read it.
 */
export function answersFrom(load: () => Iterable<readonly [string, boolean]>): void {
  answerSource = load;
}

function knownAnswer(key: string): boolean | undefined {
  if (answerSource !== undefined) {
    const load = answerSource;
    answerSource = undefined;
    for (const [known, value] of load()) if (!answers.has(known)) answers.set(known, value);
  }
  return answers.get(key);
}

/** Every answer known now (oldest first), and whether this process learned any. */
export function knownAnswers(): { entries: [string, boolean][]; learned: boolean } {
  return { entries: [...answers], learned: learnedAnswers };
}

/** What to write instead of the constructs RE2 refuses, by the piece of syntax that was refused. */
function advice(reason: string): string {
  if (/\(\?[=!]|\(\?<[=!]/.test(reason)) {
    return 'RE2 has no lookahead or lookbehind: match the surrounding text itself, or split the rule into two patterns';
  }
  if (/\\[1-9k]/.test(reason)) return 'RE2 has no backreferences: spell the repeated text out, or match it with a character class';
  if (/\\u/.test(reason)) return 'write a Unicode character as \\x{00e9} (RE2) rather than \\u00e9';
  return 'write an RE2 regular expression (JavaScript syntax without lookaround or backreferences), e.g. "console\\\\.log\\\\s*\\\\("';
}

type Compiled = { ok: true; regex: RE2JS } | { ok: false; reason: string; instead: string };

function compile(source: string, flags: string): Compiled {
  const module = re2();
  const RE2 = module.RE2JS;
  const bits: Record<string, number> = { i: RE2.CASE_INSENSITIVE, m: RE2.MULTILINE, s: RE2.DOTALL, u: 0 };
  let mask = 0;
  for (const flag of flags) {
    const bit = bits[flag];
    if (bit === undefined) return { ok: false, reason: `unknown flag "${flag}"`, instead: 'use only the flags i, m, s and u' };
    mask |= bit;
  }
  try {
    const regex = RE2.compile(source, mask);
    return { ok: true, regex };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp:\s*/, '');
    return { ok: false, reason, instead: advice(reason) };
  }
}

/**
 * A pattern compiled on first real use. Before that, and on every call, a text that lacks literal
 * text every match must contain (see requiredNeeds) cannot match, and RE2 is not needed to say so.
 */
function pattern(source: string, flags: string, compiled?: RE2JS): Pattern {
  const needs = requiredNeeds(source, flags);
  const caseless = flags.includes('i');
  let regex = compiled;
  const mayMatch = (text: string): boolean => {
    if (needs.length === 0) return true;
    // RE2's case folding maps U+017F (long s) to s and U+212A (Kelvin) to k; toLowerCase does the latter.
    return meetsNeeds(caseless ? text.toLowerCase().replace(/\u017f/g, 's') : text, needs);
  };
  const ready = (): RE2JS => {
    if (regex === undefined) {
      const result = compile(source, flags);
      if (!result.ok) throw new PatternError(`${JSON.stringify(source)} does not compile on RE2 (${result.reason})`);
      regex = result.regex;
    }
    return regex;
  };
  return {
    source,
    test: (text) => {
      if (!mayMatch(text)) return false;
      if (text.length > MAX_ANSWER_TEXT) return ready().matcher(text).find();
      const key = answerKey(source, flags, text);
      const known = knownAnswer(key);
      if (known !== undefined) return known;
      const answer = ready().matcher(text).find();
      answers.set(key, answer);
      if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
      learnedAnswers = true;
      return answer;
    },
    mayMatch: (text) => mayMatch(text) && (text.length > MAX_ANSWER_TEXT || knownAnswer(answerKey(source, flags, text)) !== false),
    find: (text) => {
      if (!mayMatch(text)) return undefined;
      const matcher = ready().matcher(text);
      return matcher.find() ? { index: matcher.start(), text: matcher.group() ?? '' } : undefined;
    },
  };
}

/** Compiles now: the rulebook loader's check, with the reason and what to write instead when RE2 refuses. */
export function compilePattern(source: string, flags: string): CompiledPattern {
  const result = compile(source, flags);
  return result.ok ? { ok: true, pattern: pattern(source, flags, result.regex) } : result;
}

/**
 * The patterns of one rule field, compiled when first needed. The rulebook loader refuses a pattern
 * that does not compile, so only a rulebook that skipped it (hand-built, recorded) gets a PatternError
 * from `test`/`find`; the checks then fail closed.
 */
export function lazyPatterns(sources: readonly string[], flags: string): Pattern[] {
  return sources.map((source) => pattern(source, flags));
}

/** The earliest match of any of the patterns, or undefined. Throws PatternError for a pattern that does not compile. */
export function firstMatch(content: string, patterns: readonly Pattern[]): { index: number; text: string } | undefined {
  let best: { index: number; text: string } | undefined;
  for (const each of patterns) {
    const match = each.find(content);
    if (match !== undefined && (best === undefined || match.index < best.index)) best = match;
  }
  return best;
}
