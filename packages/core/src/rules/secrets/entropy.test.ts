import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shannonEntropy } from './entropy.js';

/** The same text moved out of ASCII: the same counts in the same order, read by the general path. */
const outOfAscii = (text: string) => String.fromCharCode(...[...text].map((character) => (character.charCodeAt(0) % 128) + 0x400));
const ascii = fc.string({ maxLength: 80 }).map((text) => [...text].map((character) => String.fromCharCode(character.charCodeAt(0) % 128)).join(''));

describe('shannonEntropy', () => {
  it('gives ASCII text exactly the entropy the general path gives the same counts', () => {
    fc.assert(
      fc.property(ascii, (text) => {
        expect(shannonEntropy(text)).toBe(shannonEntropy(outOfAscii(text)));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves no count behind for the next call', () => {
    expect(shannonEntropy('aaaaaaab')).toBe(shannonEntropy('aaaaaaab'));
    shannonEntropy('abcdefgh');
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
