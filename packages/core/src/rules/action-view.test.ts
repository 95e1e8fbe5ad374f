import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quote } from './action-view.js';

describe('quote', () => {
  it('quotes as JSON does, plain paths and anything else alike', () => {
    const text = fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Za-z0-9._/ -]{0,80}$/));
    fc.assert(
      fc.property(text, (value) => {
        expect(quote(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('shortens a long value with an ellipsis inside the quotes', () => {
    expect(quote('a'.repeat(100))).toBe(`"${'a'.repeat(80)}…"`);
  });
});
