import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('marks every line of a new file as added', () => {
    expect(lineDiff(null, 'a\nb\n')).toEqual([
      { kind: 'added', text: 'a' },
      { kind: 'added', text: 'b' },
    ]);
  });

  it('keeps the shared lines and shows a changed line as removed then added', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('rebuilds both sides exactly from any pair of texts', () => {
    const text = fc.array(fc.constantFrom('x', 'y', 'z', 'console.log(1)', ''), { maxLength: 12 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = lineDiff(before, after);
        const old = diff.filter((line) => line.kind !== 'added').map((line) => line.text);
        const next = diff.filter((line) => line.kind !== 'removed').map((line) => line.text);
        const lines = (value: string) => (value === '' ? [] : value.replace(/\n$/, '').split('\n'));
        expect(old).toEqual(lines(before));
        expect(next).toEqual(lines(after));
      }),
      { numRuns: 200 },
    );
  });
});
