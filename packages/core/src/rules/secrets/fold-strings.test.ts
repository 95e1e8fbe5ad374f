import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldParsed, mayFold } from './fold-strings.js';

// The pre-check decides which files are parsed for folding: a file it passes over is read as text only,
// so every file folding would fold must pass it. Each case folds to `ghp_abcdefgh…` when parsed.
const cases: [string, string][] = [
  ['a number in a substitution', 'const key = `ghp_${0}abcdefghijklmnop`;\n'],
  ['a parenthesised substitution', 'const key = `ghp_${(1)}abcdefghijklmnop`;\n'],
  ['a commented substitution', 'const key = `ghp_${/* n */ 1}abcdefghijklmnop`;\n'],
  ['a name bound later in a const list', "const a = 1, head = 'ghp_';\nconst key = `${head}abcdefghijklmnop`;\n"],
  ['a const bound on the next line', "const\n  head =\n  'ghp_';\nconst key = `${head}abcdefghijklmnop`;\n"],
  ['a const with a long type', "const head: string | (() => void) | undefined | null | number = 'ghp_';\nconst key = `${head}abcdefghijklmnop`;\n"],
  ['a const naming another const', "const first = 'ghp_';\nconst head = first;\nconst key = `${head}abcdefghijklmnop`;\n"],
  ['a name in Unicode letters', "const клю = 'ghp_';\nconst key = `${клю}abcdefghijklmnop`;\n"],
  ['a comment before the plus', "const key = 'ghp_' /* x */ + 'abcdefghijklmnop';\n"],
  ['a line comment before the plus', "const key = 'ghp_' // x\n  + 'abcdefghijklmnop';\n"],
  ['padding longer than a window', `const key = 'ghp_'${' '.repeat(5000)}+${' '.repeat(5000)}'abcdefghijklmnop';\n`],
  ['parentheses around both sides', "const key = ('ghp_') + ('abcdefghijklmnop');\n"],
  ['two aliases added', "const a0 = 'ghp_';\nconst b0 = 'abcdefghijklmnop';\nconst a = a0;\nconst b = b0;\nconst key = a + b;\n"],
  ['a join with white space at the dot', "const key = ['ghp_', 'abcdefghijklmnop'] . join ('');\n"],
  ['a join on the next line', "const key = ['ghp_', 'abcdefghijklmnop']\n  .join('');\n"],
];

describe('the folding pre-check', () => {
  it.each(cases)('parses a file folding reads: %s', (_name, content) => {
    expect(foldParsed(content, 'src/key.ts').map((fold) => fold.value)).toContainEqual(expect.stringContaining('ghp_'));
    expect(mayFold(content, 'src/key.ts')).toBe(true);
  });

  it.each([
    ['plain code', 'export function add(a: number, b: number) {\n  return a + b + 1;\n}\n'],
    ['a template of a parameter', 'export const greet = (name: string) => `hi ${name}`;\n'],
    ['a counter', 'let i = 0;\nfor (;;) i++;\n'],
  ])('leaves a file with nothing to fold unparsed: %s', (_name, content) => {
    expect(foldParsed(content, 'src/a.ts').filter((fold) => fold.value.length >= 8)).toEqual([]);
    expect(mayFold(content, 'src/a.ts')).toBe(false);
  });

  it('never passes over a file folding folds (fragments of literals, names, comments, line ends and Unicode)', () => {
    const fragments = fc.constantFrom(
      "'ghp_'",
      "'abcdefgh'",
      '`x${',
      '}y`',
      '`abcdefghij`',
      '0',
      '(',
      ')',
      '+',
      ' ',
      '\n',
      '\u2028',
      '/* c */',
      '// c\n',
      'const ',
      'const a = ',
      'const b: string = ',
      'a',
      'b',
      'é',
      ', ',
      ' = ',
      ';\n',
      '.join("")',
      '[',
      ']',
      '!',
      ' as string',
    );
    fc.assert(
      fc.property(
        fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join('')),
        (content) => {
          if (!mayFold(content, 'src/a.ts')) expect(foldParsed(content, 'src/a.ts')).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });
});
