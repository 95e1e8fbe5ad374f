import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onlyGlueBetween } from './glue.js';

/** The check as it was written before (main 6930aeb): each gap copied, fences removed, then tested. */
function gapWasGlue(gap: string): boolean {
  return /^[\s,]*$/.test(gap.replace(/`{3,}[A-Za-z0-9_+.-]*/g, ''));
}

describe('onlyGlueBetween', () => {
  it('agrees with the copy-and-replace check on any gap between two values', () => {
    const token = fc.constantFrom(' ', '\n', '\t', '\u00a0', '\u2028', ',', '`', '``', '```', '````', 'json', 'x', '-', '.', '+', '_', '{', '}', '"');
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 24 }).map((tokens) => tokens.join('')),
        (gap) => {
          const text = `{"a":1}${gap}{"b":2}`;
          expect(onlyGlueBetween(text, 7, 7 + gap.length)).toBe(gapWasGlue(gap));
          expect(onlyGlueBetween(`{"a":1}${gap}`, 7, 7 + gap.length)).toBe(gapWasGlue(gap));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['', true],
    [' ,\n', true],
    ['\n```json\n', true],
    ['````\n', true],
    ['```js```', true],
    ['``', false],
    ['```a``', false],
    ['and', false],
  ])('reads %j as glue: %s', (gap, expected) => {
    expect(onlyGlueBetween(`[]${gap}`, 2, 2 + gap.length)).toBe(expected);
  });

  it('stops in one pass on a long run of spaces before prose', () => {
    const text = `${' '.repeat(200_000)}x`;
    expect(onlyGlueBetween(text, 0, text.length)).toBe(false);
  });
});
