import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@holdfast/core/contract';
import { capStoredReply, headWithin } from './stored-reply.js';

describe('headWithin', () => {
  it('leaves a text that fits alone', () => {
    expect(headWithin('short', 10)).toBeUndefined();
    expect(headWithin('é'.repeat(5), 10)).toBeUndefined();
  });

  it('keeps the longest head within the cap, with the whole size', () => {
    expect(headWithin('abcdefghij', 4)).toEqual({ head: 'abcd', bytes: 10 });
    // é is two bytes: five of them fit in 10, the sixth would not.
    expect(headWithin('é'.repeat(8), 11)).toEqual({ head: 'é'.repeat(5), bytes: 16 });
  });

  it('never cuts a value that is redacted whole: it ends before it', () => {
    // The cap (10) falls inside the key: keeping "abcdesk-li" would store half of it unredacted.
    expect(headWithin('abcdesk-live-0123456789', 10, ['sk-live-0123456789'])).toEqual({ head: 'abcde', bytes: 23 });
    expect(headWithin('sk-live-0123456789 and more text', 10, ['sk-live-0123456789'])).toEqual({ head: '', bytes: 32 });
    // A value wholly inside the head or wholly after it is left to the redaction.
    expect(headWithin('abcdefghijk-secret', 10, ['-secret'])).toEqual({ head: 'abcdefghij', bytes: 18 });
  });

  it('never ends inside a character made of two UTF-16 units', () => {
    // a (1 byte) then emoji (4 bytes each): a cap of 7 fits "a" and one emoji, not half of the second.
    const cut = headWithin('a😀😀😀', 7)!;
    expect(cut.head).toBe('a😀');
    expect(Buffer.byteLength(cut.head)).toBeLessThanOrEqual(7);
    expect(cut.bytes).toBe(13);
  });
});

function armEnd(raw: string, reasoning?: string): RunEvent {
  return {
    seq: 3,
    time: '2026-01-01T00:00:00Z',
    runId: 'run-1',
    type: 'arm-end',
    roundId: 't/x/0',
    target: 't',
    task: 'x',
    rep: 0,
    result: {
      arm: 'told',
      verdict: 'unparseable',
      reason: 'no action list',
      actions: [],
      checks: [],
      generation: { raw, ...(reasoning !== undefined ? { reasoning } : {}), usage: {}, latencyMs: 1, attempts: 1 },
    },
  } as RunEvent;
}

describe('capStoredReply', () => {
  it('keeps a reply and its reasoning up to the cap and records their whole sizes', () => {
    const stored = capStoredReply(armEnd('r'.repeat(50), 'w'.repeat(40)), [], 16);
    expect(stored.type === 'arm-end' && stored.result.generation).toMatchObject({
      raw: 'r'.repeat(16),
      rawBytes: 50,
      reasoning: 'w'.repeat(16),
      reasoningBytes: 40,
    });
    // The verdict is the one judged on the whole reply; only the stored text is cut.
    expect(stored.type === 'arm-end' && stored.result.verdict).toBe('unparseable');
  });

  it('hands back an event whose reply fits as the same object', () => {
    const event = armEnd('small');
    expect(capStoredReply(event, [], 16)).toBe(event);
  });
});
