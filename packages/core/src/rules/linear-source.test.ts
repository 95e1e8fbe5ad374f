import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINEAR_ENGINE_FLAG, linearRegExp } from './linear-engine.js';
import { fitsLinear, re2Syntax, translateToLinear } from './linear-source.js';
import type { LinearSource } from './linear-source.js';
import { loadRe2 } from './re2-loader.js';
import { compilePattern } from './regex.js';

// re2js as it is, without holdfast's pattern layer: the answers the translation must give.
const re2js = loadRe2();
const syntax = re2Syntax(re2js.holdfastSyntax);
const { RE2JS } = re2js;

type Answer = { index: number; text: string } | undefined;

function reference(source: string, flags: string, text: string): Answer {
  const bits: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
  let mask = 0;
  for (const flag of flags) mask |= bits[flag] ?? 0;
  const matcher = RE2JS.compile(source, mask).matcher(text);
  return matcher.find() ? { index: matcher.start(), text: matcher.group() ?? '' } : undefined;
}

function translated(source: string, flags: string): { translation: LinearSource; regex: RegExp } | undefined {
  const translation = translateToLinear(source, flags, syntax!);
  const regex = translation === undefined ? undefined : linearRegExp(translation);
  return translation === undefined || regex === undefined ? undefined : { translation, regex };
}

function linearAnswer(regex: RegExp, text: string): Answer {
  const match = regex.exec(text);
  return match === null ? undefined : { index: match.index, text: match[0] };
}

const ORDER = '^\\s*(?:npm\\s+(?:run\\s+)?test|npx\\s+vitest\\s+run|pnpm\\s+(?:run\\s+)?test|yarn\\s+(?:run\\s+)?test)(?:[ \\t][^|;&\\n\\r`$]*)?$';

// The default rulebook's patterns, and ones that reach each corner where JavaScript and RE2 differ.
const PATTERNS: [string, string][] = [
  [ORDER, ''],
  ['\\bconsole\\s*\\.\\s*log\\b', ''],
  ['\\bfetch\\s*\\(', ''],
  ['\\baxios\\b', ''],
  ['^npm (?:run )?test$', ''],
  ['\\s+', ''],
  ['\\S+', ''],
  ['a\\sb', ''],
  ['k', 'i'],
  ['s+', 'i'],
  ['KELVIN|kelvin', 'i'],
  ['[a-z]+', 'i'],
  ['\\w+', 'i'],
  ['\\W', 'i'],
  ['(?i)straße', ''],
  ['σ', 'i'],
  ['.', ''],
  ['a.b', ''],
  ['a.b', 's'],
  ['^.*$', ''],
  ['^.*$', 'm'],
  ['^b', 'm'],
  ['b$', 'm'],
  ['^$', 'm'],
  ['^', 'm'],
  ['$', ''],
  ['\\Aa', 'm'],
  ['x*', ''],
  ['', ''],
  ['a*?b', ''],
  ['a+?', ''],
  ['(?:ab)+?c', ''],
  ['a{2,3}', ''],
  ['a{2,}?', ''],
  ['a|ab', ''],
  ['ab|a', ''],
  ['(?U)a+', ''],
  ['\\bx\\B', ''],
  ['\\d+', ''],
  ['[^a]', ''],
  ['[^\\n]+', ''],
  ['\\x{212A}', ''],
  ['\\x{1F600}|x', ''],
  ['[\\x{1F600}-\\x{1F64F}]', ''],
  ['\\pL+', ''],
  ['\\p{Greek}', 'i'],
  ['[[:space:]]+', ''],
  ['\\Q.*\\E', ''],
  ['^(a|aa)*$', ''],
];

const TEXTS = [
  '',
  'npm test',
  'npm test -- --run src/orders.test.ts',
  '  npm run test',
  'npx vitest run',
  'npm test && rm -rf /',
  'npm test\n',
  '\u00a0npm test',
  'npm\u2003test',
  'npm\u3000test',
  'npm\ftest',
  'npm\vtest',
  'console.log(1)',
  'console . log',
  'console\u00a0.log',
  'fetch (x)',
  'axios',
  'ab',
  'a b',
  'a\u00a0b',
  'a\u2028b',
  'a\nb',
  'a\rb',
  'a\r\nb\r\n',
  'b\na\nb',
  'Kelvin \u212a k K',
  'STRASSE stra\u017fe straße',
  'ΣΑΣ σας',
  'aaa',
  'aaab',
  'xaab',
  'x_y',
  '123abc',
  '😀x',
  'x😀y',
  '\ud800 lone',
  'a\u2029b\u0085c',
  'ABab\tab\n\nab',
];

describe('the linear engine', () => {
  it('is created: V8 refuses flag l without the option and takes it with it (a node started with the option, then this process)', () => {
    const script = "try { new RegExp('a', 'l'); console.log('yes') } catch { console.log('no') }";
    expect(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout.trim()).toBe('no');
    expect(spawnSync(process.execPath, [LINEAR_ENGINE_FLAG, '-e', script], { encoding: 'utf8' }).stdout.trim()).toBe('yes');
    const regex = linearRegExp({ source: '^(?:a|aa)*$', multiline: false });
    expect(regex?.flags).toBe('l');
  });

  it('cannot backtrack: ^(a|aa)*$ against 100,000 a and a b is answered (by construction: V8 builds no l regex it cannot run in linear time)', () => {
    const found = translated('^(a|aa)*$', '');
    expect(found?.regex.flags).toBe('l');
    const text = `${'a'.repeat(100_000)}b`;
    expect(found?.regex.test(text)).toBe(false);
    const compiled = compilePattern('^(a|aa)*$', '');
    expect(compiled.ok && compiled.pattern.test(text)).toBe(false);
  });

  it('refuses what it cannot bound, and the pattern then has no linear regex', () => {
    expect(linearRegExp({ source: '(?:a{1000}){1000}', multiline: false })).toBeUndefined();
  });
});

describe('translateToLinear (RE2 meaning on the l engine)', () => {
  it('finds re2js in the loaded module', () => {
    expect(syntax).toBeDefined();
  });

  it('spells out what RE2 means: \\s, ., case folding with K/U+212A and S/U+017F', () => {
    expect(translateToLinear('\\s', '', syntax!)?.source).toBe('[\\u0009-\\u000a\\u000c-\\u000d\\u0020]');
    expect(translateToLinear('a.b', '', syntax!)?.source).toBe('(?:a[^\\n]b)');
    expect(translateToLinear('ks', 'i', syntax!)?.source).toBe('(?:[\\u004b\\u006b\\u212a][\\u0053\\u0073\\u017f])');
    expect(translateToLinear('^a$', 'm', syntax!)).toEqual({ source: '(?:^a$)', multiline: true });
  });

  it.each([
    ['(a|)*', ''],
    ['(a*)+', ''],
    ['(?:\\b)+', ''],
    ['(?:x?)?', ''],
    ['\\A^', 'm'],
    ['(?<=a)b', ''],
  ])('keeps %j (%j) on re2js: it cannot be written exactly', (source, flags) => {
    expect(translateToLinear(source, flags, syntax!)).toBeUndefined();
  });

  it('translates every listed pattern: none of them needs re2js on a text it fits', () => {
    const untranslated = PATTERNS.filter(([source, flags]) => translated(source, flags) === undefined);
    expect(untranslated).toEqual([]);
  });

  it.each(PATTERNS)('gives re2js answer for %j (flags %j) on every text it fits, and the pattern gives it on all', (source, flags) => {
    const found = translated(source, flags);
    const compiled = compilePattern(source, flags);
    if (!compiled.ok) throw new Error(compiled.reason);
    for (const text of TEXTS) {
      const expected = reference(source, flags, text);
      if (found !== undefined && fitsLinear(text, found.translation.multiline)) {
        expect(linearAnswer(found.regex, text), JSON.stringify(text)).toEqual(expected);
      }
      expect(compiled.pattern.find(text), JSON.stringify(text)).toEqual(expected);
      expect(compiled.pattern.test(text), JSON.stringify(text)).toBe(expected !== undefined);
    }
  });

  it('gives the same answers on a text long enough to go to re2js', () => {
    const text = `${'const total = items.length;\n'.repeat(4000)}console . log(total)`;
    const compiled = compilePattern('\\bconsole\\s*\\.\\s*log\\b', '');
    expect(compiled.ok && compiled.pattern.find(text)).toEqual(reference('\\bconsole\\s*\\.\\s*log\\b', '', text));
    expect(compiled.ok && compiled.pattern.find(text)?.index).toBe(text.length - 'console . log(total)'.length);
  });

  it('fits no text with a surrogate, nor, for multi-line anchors, one with \\r, U+2028 or U+2029', () => {
    expect(fitsLinear('npm test', false)).toBe(true);
    expect(fitsLinear('a\r\nb', false)).toBe(true);
    expect(fitsLinear('a\r\nb', true)).toBe(false);
    expect(fitsLinear('a\u2028b', true)).toBe(false);
    expect(fitsLinear('😀', false)).toBe(false);
    expect(fitsLinear('\udc00', false)).toBe(false);
  });
});

// Patterns built from pieces where the two engines' meanings part, against texts from characters
// that tell them apart: the translation answers as re2js wherever it fits the text.
const PIECES = [
  'a',
  'b',
  'k',
  's',
  'K',
  '\\s',
  '\\S',
  '\\w',
  '\\W',
  '\\d',
  '\\b',
  '\\B',
  '.',
  '^',
  '$',
  '[^a]',
  '[a-k]',
  '\\x{212A}',
  '\\x{17F}',
  '\\n',
  '\\r',
  ' ',
  'é',
];
const CHARACTERS = [
  'a',
  'b',
  'k',
  'K',
  's',
  'S',
  'é',
  'É',
  '\u212a',
  '\u017f',
  ' ',
  '\t',
  '\n',
  '\r',
  '\f',
  '\v',
  '\u00a0',
  '\u2028',
  '\u3000',
  '_',
  '0',
  '😀',
  '.',
];

const atom = fc.constantFrom(...PIECES);
const piece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('piece'), tie('piece')).map(([left, right]) => left + right),
    fc.tuple(tie('piece'), tie('piece')).map(([left, right]) => `(?:${left}|${right})`),
    fc.tuple(tie('piece'), fc.constantFrom('*', '+', '?', '*?', '+?', '??', '{1,2}', '{2}')).map(([inner, count]) => `(?:${inner})${count}`),
  ),
})).piece;

describe('translation against re2js on generated patterns and texts', () => {
  it('gives the same test answer, first match index and text', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        piece,
        fc.constantFrom('', 'i', 'm', 's', 'im', 'ms'),
        fc.array(fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 8 }), { minLength: 1, maxLength: 12 }),
        (source, flags, texts) => {
          const found = translated(source, flags);
          if (found === undefined) return;
          for (const characters of texts) {
            const text = characters.join('');
            if (!fitsLinear(text, found.translation.multiline)) continue;
            compared += 1;
            expect(linearAnswer(found.regex, text), `${source} /${flags} on ${JSON.stringify(text)}`).toEqual(reference(source, flags, text));
          }
        },
      ),
      { numRuns: 400, seed: 20261201 },
    );
    expect(compared).toBeGreaterThan(1000);
  });
});
