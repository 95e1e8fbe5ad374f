import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

describe('LineSplitter', () => {
  it('holds back a line split across chunks until its newline arrives', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('{"a":')).toEqual([]);
    expect(splitter.push('1}\n{"b"')).toEqual(['{"a":1}']);
    expect(splitter.push(':2}\n')).toEqual(['{"b":2}']);
    expect(splitter.end()).toBeUndefined();
  });

  it('returns the same lines however the text is cut', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n') }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const splitter = new LineSplitter();
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
        const lines: string[] = [];
        let from = 0;
        for (const point of [...points, text.length]) {
          lines.push(...splitter.push(text.slice(from, point)));
          from = point;
        }
        const last = splitter.end();
        if (last !== undefined) lines.push(last);
        const expected = text.split('\n');
        if (expected[expected.length - 1] === '') expected.pop();
        expect(lines).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
