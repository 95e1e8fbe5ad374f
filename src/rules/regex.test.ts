import { describe, expect, it } from 'vitest';
import { compilePattern, nestedQuantifier } from './regex.js';

describe('nestedQuantifier', () => {
  it.each(['(a+)+', '(\\w*,?)*', '(?:a|b+){2,}', '((ab)*c)+', '(x{2,5})*'])('finds the nested repetition in %j', (source) => {
    expect(nestedQuantifier(source)).toBeDefined();
  });

  it.each([
    '\\bconsole\\s*\\.\\s*log\\b',
    '\\bfetch\\s*\\(',
    '(a+)?',
    '(ab)+',
    '[(a+)]+',
    '\\(a+\\)+',
    '(?:\\s[^|;&]*)?$',
    '(a{1})+',
  ])('accepts %j', (source) => {
    expect(nestedQuantifier(source)).toBeUndefined();
  });
});

describe('compilePattern', () => {
  it('keeps only the cause of a syntax error', () => {
    expect(compilePattern('(', '')).toEqual({ ok: false, reason: 'Unterminated group' });
  });

  it('compiles a valid source with its flags', () => {
    const compiled = compilePattern('a.b', 'i');
    expect(compiled.ok && compiled.regex.test('A-B')).toBe(true);
  });
});
