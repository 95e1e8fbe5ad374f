import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keywordProbe, literalProbe, patternProbe, probeTable, readOnce } from './one-pass.js';

const table = probeTable([
  keywordProbe('pass'),
  keywordProbe('key'),
  literalProbe(0, 'AIza'),
  literalProbe(1, 'SK0'),
  patternProbe(2, /x(?:ox[bp]|app)-/, ['xox', 'xap']),
]);

/** The reference: every probe tried at every position. */
function byEveryPosition(content: string): { flags: number[]; keywords: number[] } {
  const flags = [0, 0, 0];
  const keywords: number[] = [];
  const slack = /x(?:ox[bp]|app)-/y;
  for (let start = 0; start < content.length; start++) {
    for (const keyword of ['pass', 'key']) {
      // ASCII only: the Kelvin sign lower-cases to `k`, but no case-insensitive JS pattern without `u` matches it.
      const piece = content.slice(start, start + keyword.length);
      if (piece.toLowerCase() === keyword && [...piece].every((character) => character.charCodeAt(0) < 128)) {
        keywords.push(start, start + keyword.length);
      }
    }
    if (content.startsWith('AIza', start)) flags[0] = 1;
    if (content.startsWith('SK0', start)) flags[1] = 1;
    slack.lastIndex = start;
    if (slack.test(content)) flags[2] = 1;
  }
  return { flags, keywords };
}

function read(content: string): { flags: number[]; keywords: number[] } {
  const { flags, keywords } = readOnce(content, table);
  return { flags: [0, 1, 2].map((flag) => (flags >> flag) & 1), keywords: [...keywords] };
}

describe('readOnce', () => {
  it('finds what trying every probe at every position finds', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.constantFrom('pass', 'PaSs', 'KEY', 'kEy', 'AIza', 'aiza', 'SK0', 'sk0', 'skp', 'SKP', 'xoxb-', 'XOXB-', 'xapp-', '\u212aey', 'pa\u017fs', 'p', 'ke'),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join('')),
        (content) => {
          expect(read(content)).toEqual(byEveryPosition(content));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('finds a probe at the very start and at the very end, and nothing in content shorter than three', () => {
    expect(read('keyAIza')).toEqual({ flags: [1, 0, 0], keywords: [0, 3] });
    expect(read('xx SK0')).toEqual({ flags: [0, 1, 0], keywords: [] });
    expect(read('SK')).toEqual({ flags: [0, 0, 0], keywords: [] });
    expect(read('')).toEqual({ flags: [0, 0, 0], keywords: [] });
  });

  it('records every keyword of a long content, overlapping ones included, and each read keeps its own', () => {
    const { keywords } = readOnce('passkey'.repeat(1000), table);
    expect(keywords.length).toBe(4000);
    expect([...keywords.subarray(0, 4)]).toEqual([0, 4, 4, 7]);
    expect([...keywords.subarray(-2)]).toEqual([6997, 7000]);
    const hostile = readOnce('key'.repeat(200_000), table).keywords;
    expect(readOnce('a key', table).keywords).toEqual(new Int32Array([2, 5]));
    expect(hostile.length).toBe(400_000);
    expect(keywords.length).toBe(4000);
    expect([...keywords.subarray(0, 4)]).toEqual([0, 4, 4, 7]);
  });

  it('refuses a probe it cannot index', () => {
    expect(() => keywordProbe('ab')).toThrow(/three or more/);
    expect(() => probeTable([literalProbe(0, 'SK')])).toThrow(/three characters/);
    expect(() => literalProbe(31, 'AIza')).toThrow(/0 to 30/);
  });
});
