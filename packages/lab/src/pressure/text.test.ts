import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsPhrase, normalizeText } from './text.js';

/** normalizeText as written before (main 6930aeb): a lower-case copy, a global replace, a trim. */
function normalizedBefore(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const asciiText = fc.string({
  unit: fc.constantFrom('a', 'Z', 'q', '0', '9', ' ', '  ', '.', ',', '\n', '\t', '_', '-', "'", '@', '[', '`', '{', '\x7f', '\x00'),
});

describe('normalizeText', () => {
  it('gives what the lower-case, replace and trim gave, on ASCII text (the byte-by-byte path)', () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        expect(normalizeText(text)).toBe(normalizedBefore(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives what the lower-case, replace and trim gave, on any text', () => {
    const unicodeText = fc.string({
      unit: fc.oneof(
        fc.constantFrom('İ', 'K', 'Σ', 'ς', 'ſ', 'µ', 'é', '\u00a0', '\u2028', '١', '𝐀', '\ud800'),
        fc.string({ unit: 'grapheme', maxLength: 1 }),
        fc.string({ unit: 'binary', maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(unicodeText, (text) => {
        expect(normalizeText(text)).toBe(normalizedBefore(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the bench prose shape as before at 300 KB', () => {
    const prose = 'The deadline is close but the rule still holds here. '.repeat(5_661);
    expect(normalizeText(prose)).toBe(normalizedBefore(prose));
  });
});

describe('containsPhrase', () => {
  it('says what the padded includes said', () => {
    const word = fc.constantFrom('a', 'ab', 'key', 'b', 'rotate');
    const normalized = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(
        normalized,
        normalized.filter((phrase) => phrase !== ''),
        (text, phrase) => {
          expect(containsPhrase(text, phrase)).toBe(` ${text} `.includes(` ${phrase} `));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
