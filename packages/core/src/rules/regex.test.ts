import { describe, expect, it } from 'vitest';
import { compilePattern, firstMatch, lazyPatterns, PatternError } from './regex.js';
import type { Pattern } from './regex.js';

function pattern(source: string, flags = ''): Pattern {
  const compiled = compilePattern(source, flags);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.pattern;
}

describe('compilePattern (RE2)', () => {
  it('compiles a valid source with its flags', () => {
    expect(pattern('a.b', 'i').test('A-B')).toBe(true);
    expect(pattern('^b$', 'm').test('a\nb\nc')).toBe(true);
    expect(pattern('a.b', 's').test('a\nb')).toBe(true);
    expect(pattern('a.b').test('a\nb')).toBe(false);
  });

  it.each([
    ['(a)\\1', /backreferences/],
    ['(?<n>a)\\k<n>', /backreferences/],
    ['console(?=\\.log)', /lookahead or lookbehind/],
    ['(?<!x)log', /lookahead or lookbehind/],
    ['\\u00e9', /\\x\{00e9\}/],
    ['(', /RE2 regular expression/],
  ])('refuses %j and says what to write instead', (source, instead) => {
    const compiled = compilePattern(source, '');
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.instead).toMatch(instead);
  });

  it('refuses a flag it does not know', () => {
    expect(compilePattern('a', 'g')).toMatchObject({ ok: false, reason: 'unknown flag "g"' });
  });

  it('finds the leftmost match with a UTF-16 offset, like String.prototype.indexOf', () => {
    expect(pattern('b+', 'i').find('😀aBBc')).toEqual({ index: 3, text: 'BB' });
    expect(pattern('x').find('abc')).toBeUndefined();
  });

  // Correctness only: these take exponential time on a backtracking engine; on RE2 they return.
  // Their timing (linear in the input) is measured by `npm run bench -- checks`.
  it.each([
    ['^(a|aa)*$', `${'a'.repeat(100_000)}b`, false],
    ['^(a|aa)*$', 'a'.repeat(100_000), true],
    ['^(a+)+$', `${'a'.repeat(100_000)}!`, false],
    ['(\\w|\\d)+$', `${'a'.repeat(100_000)}!`, false],
    ['(\\w|\\d)+$', `!${'a'.repeat(100_000)}`, true],
  ])('matches %j on 100k characters', (source, input, expected) => {
    expect(pattern(source).test(input)).toBe(expected);
  });
});

describe('lazyPatterns and firstMatch', () => {
  it('compiles a pattern when it is first needed, and a broken one then throws a PatternError', () => {
    const [lookahead, stray] = lazyPatterns(['console(?=\\.log)', 'log)'], '');
    expect(() => lookahead?.test('nothing to see')).toThrow(PatternError);
    expect(() => stray?.find('no match here')).toThrow(/does not compile on RE2/);
  });

  it('returns the earliest match of any pattern', () => {
    const patterns = lazyPatterns(['axios', 'fetch\\('], '');
    expect(firstMatch('x = fetch(1); axios.get()', patterns)).toEqual({ index: 4, text: 'fetch(' });
    expect(firstMatch('nothing here', patterns)).toBeUndefined();
  });

  it('matches case-insensitively through the literal prefilter, including RE2 folds outside ASCII', () => {
    const [pattern] = lazyPatterns(['\\bconsole\\s*\\.\\s*log\\b'], 'i');
    expect(pattern?.test('CONSOLE . Log(1)')).toBe(true);
    expect(pattern?.test('con\u017fole.log')).toBe(true);
    expect(pattern?.test('console.error')).toBe(false);
  });

  it('says without RE2 when a text surely does not match (mayMatch), and never says so of a match', () => {
    const [pattern] = lazyPatterns(['^\\s*npm\\s+test(?:\\s.*)?$'], '');
    expect(pattern?.mayMatch?.('git status --short')).toBe(false);
    expect(pattern?.mayMatch?.('npm test')).toBe(true);
    expect(pattern?.mayMatch?.('echo npm; echo test')).toBe(true);
    expect(pattern?.test('npm test -- --run a')).toBe(true);
    expect(pattern?.mayMatch?.('npm test -- --run a')).toBe(true);
    expect(pattern?.test('echo npm test')).toBe(false);
    expect(pattern?.mayMatch?.('echo npm test')).toBe(false);
  });
});
