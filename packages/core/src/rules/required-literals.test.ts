import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern } from './regex.js';
import { meetsNeeds, requiredLiterals, requiredNeeds } from './required-literals.js';

describe('requiredLiterals', () => {
  it.each([
    ['\\bconsole\\s*\\.\\s*log\\b', '', ['console', '.', 'log']],
    ['\\bfetch\\s*\\(', '', ['fetch', '(']],
    ['ab*c', '', ['a', 'c']],
    ['ab+c', '', ['ab', 'c']],
    ['x(?:ab|cd)+y', '', ['x', 'y']],
    ['[a-z]+foo[0-9]?', '', ['foo']],
    ['AKIA', 'i', ['akia']],
    ['^\\s*(?:npm|yarn)\\s+test', '', ['test']],
  ])('%j (flags %j) needs %j', (source, flags, expected) => {
    expect(requiredLiterals(source, flags)).toEqual(expected);
  });

  it.each(['a|b', 'a{2}', '(?i)abc', '\\x41', '\\u00e9', '\\pL', '\\Qa.b\\E', '\\n', 'a)', 'a(?=b)', '(a)\\1', '^(a|aa)*$'])('gives up on %j', (source) => {
    expect(requiredLiterals(source, '')).toEqual([]);
  });

  it('reads alternatives into a choice, and drops optional groups', () => {
    expect(requiredNeeds('^\\s*(?:npm\\s+(?:run\\s+)?test|npx\\s+vitest\\s+run)(?:[ \\t][^|;&]*)?$', '')).toEqual([
      {
        anyOf: [
          ['npm', 'test'],
          ['npx', 'vitest', 'run'],
        ],
      },
    ]);
    expect(requiredNeeds('fetch|axios', 'i')).toEqual([{ anyOf: [['fetch'], ['axios']] }]);
    expect(requiredNeeds('a(b|c*)d', '')).toEqual(['a', 'd']);
    expect(requiredNeeds('(?<name>ab)+c', '')).toEqual(['ab', 'c']);
    expect(meetsNeeds('git status', requiredNeeds('^(?:npm test|yarn test)$', ''))).toBe(false);
    expect(meetsNeeds('yarn test', requiredNeeds('^(?:npm test|yarn test)$', ''))).toBe(true);
  });

  it('keeps only ASCII pieces under the i flag', () => {
    expect(requiredLiterals('σx\\.café', 'i')).toEqual([]);
  });

  // The prefilter must never say "no match" where RE2 finds one.
  it('never rejects a text RE2 matches', () => {
    const sources = [
      '\\bconsole\\s*\\.\\s*log\\b',
      'ab*c',
      'x(?:ab|cd)+y',
      'fo+(bar)?z',
      '[a-c]+d.e',
      'k\\.s',
      'é+x',
      'ab|cd?e',
      '^(?:s+k|(x|yz)o)$',
      '(a|b(c|d))e{2}',
      'f(?:oo){1,2}|zz',
      '(?P<n>ke)s|x*',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.constantFrom('', 'i', 's', 'im'),
        fc.string({
          unit: fc.constantFrom(
            'a',
            'b',
            'c',
            'd',
            'e',
            'k',
            's',
            'x',
            'y',
            'z',
            'o',
            'f',
            '.',
            ' ',
            'K',
            '\u212a',
            '\u017f',
            'é',
            'É',
            'console',
            'log',
            '\n',
          ),
        }),
        (source, flags, text) => {
          const compiled = compilePattern(source, flags);
          if (!compiled.ok) throw new Error(compiled.reason);
          const haystack = flags.includes('i') ? text.toLowerCase().replace(/\u017f/g, 's') : text;
          const prefilterSaysNo = !meetsNeeds(haystack, requiredNeeds(source, flags));
          if (prefilterSaysNo) expect(compiled.pattern.test(text)).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
