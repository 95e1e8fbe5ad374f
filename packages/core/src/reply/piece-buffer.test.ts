import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PieceBuffer } from './piece-buffer.js';

function joined(pieces: readonly string[]): string {
  const buffer = new PieceBuffer();
  for (const piece of pieces) buffer.push(piece);
  return buffer.join();
}

describe('PieceBuffer', () => {
  it('joins to what a plain join gives, across chunk boundaries', () => {
    const piece = fc.constantFrom('', '"', ',', '\\n', 'abc', '{"actions":[');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 5000 }), (pieces) => {
        expect(joined(pieces)).toBe(pieces.join(''));
      }),
      { numRuns: 100 },
    );
  });

  it.each([0, 1, 1023, 1024, 1025, 2048, 3000])('keeps the order of %i numbered pieces', (count) => {
    const pieces = Array.from({ length: count }, (_, index) => `${index},`);
    expect(joined(pieces)).toBe(pieces.join(''));
  });
});
