import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairJson } from './repair-json.js';

function repaired(text: string): unknown {
  const result = repairJson(text);
  return result === undefined ? undefined : (JSON.parse(result) as unknown);
}

describe('repairJson', () => {
  it.each([
    ['trailing commas', '{"a": [1, 2,], "b": 3,}', { a: [1, 2], b: 3 }],
    ['single quotes, with a double quote inside', `{'a': 'say "hi"', 'b': 'it\\'s'}`, { a: 'say "hi"', b: "it's" }],
    ['line and block comments', '{"a": 1, // one\n /* two */ "b": 2}', { a: 1, b: 2 }],
    ['unquoted keys and Python literals', '{a: True, b: None, c: False}', { a: true, b: null, c: false }],
    ['missing commas between values', '[{"a": 1}\n{"a": 2} 3]', [{ a: 1 }, { a: 2 }, 3]],
    ['a raw newline and tab inside a string', '{"a": "x\n\ty"}', { a: 'x\n\ty' }],
    ['cut off mid-string', '{"a": [{"b": "cut', { a: [{ b: 'cut' }] }],
    ['cut off after a key', '{"a": 1, "b"', { a: 1, b: null }],
    ['cut off after a colon', '{"a": 1, "b":', { a: 1, b: null }],
    ['cut off after a comma', '[1, 2,', [1, 2]],
    ['cut off inside an escape', '["a\\', ['a']],
    ['a lost closing bracket', '{"actions": [{"type": "run"}}', { actions: [{ type: 'run' }] }],
    ['several top-level values', '{"a": 1}\n{"b": 2}', [{ a: 1 }, { b: 2 }]],
  ])('repairs %s', (_name, text, expected) => {
    expect(repaired(text)).toEqual(expected);
  });

  it.each([
    ['prose between values', '{"a": 1} and then {"b": 2}'],
    ['markdown fences', '```json\n{"a": 1,}\n```\n```json\n{"a": 1,}\n```'],
    ['nothing at all', '  // just a comment'],
    ['nesting deeper than any reply', '['.repeat(100)],
  ])('gives up on %s', (_name, text) => {
    expect(repairJson(text)).toBeUndefined();
  });

  it('returns any JSON text unchanged in meaning', () =>
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        expect(repaired(JSON.stringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
        expect(repaired(JSON.stringify(value, null, 2))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    ));

  it('never throws, and what it returns is one JSON text or nothing', () =>
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.json(), fc.nat(), (noise, json, at) => {
        const position = at % (json.length + 1);
        for (const text of [noise, json.slice(0, position), json.slice(0, position) + noise + json.slice(position)]) {
          const result = repairJson(text);
          if (result !== undefined) expect(typeof result).toBe('string');
        }
      }),
      { numRuns: 300 },
    ));

  it('reads the 12,000-fence reply of issue 16 without guessing', () => {
    expect(repairJson('```json\n{"a": 1,}\n```\n'.repeat(12_000))).toBeUndefined();
  });
});
