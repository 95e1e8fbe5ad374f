import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../contract/index.js';
import { ParsedReplySchema } from '../contract/index.js';
import { parseReply } from './parse-reply.js';

const RUNS = { numRuns: 200 };

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const jsonishToken = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ':',
  ',',
  ' ',
  '\n',
  'x',
  'true',
  '1',
  '"actions"',
  '"type"',
  '"run"',
  '"cmd"',
  '"reasoning"',
  '"decline"',
  '{"actions": [',
  '"actions": [',
  '```',
  '```json\n',
  '<think>',
  '</think>',
  '\n</think>\n',
  "'",
  '//',
  '/*',
  '*/',
);
const jsonish = fc.array(fc.oneof(jsonishToken, loneSurrogate, fc.string({ maxLength: 4 })), { maxLength: 60 }).map((parts) => parts.join(''));

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('write' as const), path: fc.string(), content: fc.string({ unit: 'binary' }) }),
  fc.record({ type: fc.constant('delete' as const), path: fc.string() }),
  fc.record({ type: fc.constant('run' as const), cmd: fc.string() }),
  fc.record({ type: fc.constant('commit' as const), message: fc.string() }),
);
const actions = fc.array(action, { minLength: 1, maxLength: 6 });
const prose = fc.constantFrom(
  'Here is my plan.',
  'Sure! I will add the module and its test.',
  "Okay, here's what I'll do:",
  'Done.',
  'Let me know if you need anything else.',
);

/** A valid reply cut short or with one character changed: what a flaky local model produces. */
const damagedReply = fc
  .tuple(actions, fc.nat(), fc.constantFrom('cut', 'insert', 'delete'), fc.constantFrom('{', '}', '"', ',', '[', ']', '\\'))
  .map(([list, at, how, character]) => {
    const text = JSON.stringify({ actions: list });
    const position = at % (text.length + 1);
    if (how === 'cut') return text.slice(0, position);
    if (how === 'insert') return text.slice(0, position) + character + text.slice(position);
    return text.slice(0, position) + text.slice(position + 1);
  });

function parsesToSchema(text: string): void {
  const parsed = parseReply(text);
  expect(ParsedReplySchema.safeParse(parsed).success).toBe(true);
}

describe('parseReply never throws', () => {
  it('on any string', () => fc.assert(fc.property(fc.string(), parsesToSchema), RUNS));
  it('on any full-unicode string', () => fc.assert(fc.property(fc.string({ unit: 'binary' }), parsesToSchema), RUNS));
  it('on strings of lone surrogates and JSON-ish fragments', () => fc.assert(fc.property(jsonish, parsesToSchema), RUNS));
  it('on JSON values of any shape', () => fc.assert(fc.property(fc.json(), parsesToSchema), RUNS));
  it('on damaged replies', () => fc.assert(fc.property(damagedReply, parsesToSchema), RUNS));

  it('on huge and deeply nested inputs', () => {
    for (const text of [
      '['.repeat(200_000),
      '{"a":'.repeat(50_000),
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      '"'.repeat(100_001),
      `{"actions": [${'{'.repeat(100_000)}`,
    ]) {
      parsesToSchema(text);
    }
  });
});

describe('parseReply round trip', () => {
  it('reads JSON.stringify({actions}) back with method json', () =>
    fc.assert(
      fc.property(actions, (list) => {
        expect(parseReply(JSON.stringify({ actions: list }))).toEqual({ kind: 'actions', method: 'json', actions: list });
      }),
      RUNS,
    ));

  it('reads a fenced reply back with method fenced', () =>
    fc.assert(
      fc.property(actions, fc.constantFrom('json', 'JSON', ''), prose, (list, language, before) => {
        const text = `${before}\n\`\`\`${language}\n${JSON.stringify({ actions: list }, null, 2)}\n\`\`\`\n`;
        expect(parseReply(text)).toEqual({ kind: 'actions', method: 'fenced', actions: list });
      }),
      RUNS,
    ));

  it('reads a reply in prose back with method object', () =>
    fc.assert(
      fc.property(actions, prose, prose, (list, before, after) => {
        const text = `${before}\n${JSON.stringify({ actions: list })}\n${after}`;
        expect(parseReply(text)).toEqual({ kind: 'actions', method: 'object', actions: list });
      }),
      RUNS,
    ));

  it('keeps the reasoning', () =>
    fc.assert(
      fc.property(
        actions,
        fc.string({ minLength: 1 }).filter((text) => text.trim() !== ''),
        (list, reasoning) => {
          expect(parseReply(JSON.stringify({ reasoning, actions: list }))).toEqual({
            kind: 'actions',
            method: 'json',
            actions: list,
            reasoning: reasoning.trim(),
          });
        },
      ),
      RUNS,
    ));
});
