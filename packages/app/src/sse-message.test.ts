import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSseComment, formatSseMessage } from './sse-message.js';
import { createSseReader } from './sse-reader.js';
import type { ReceivedSseMessage } from './sse-reader.js';

function readAll(chunks: readonly string[]): { messages: ReceivedSseMessage[]; comments: string[] } {
  const messages: ReceivedSseMessage[] = [];
  const comments: string[] = [];
  const reader = createSseReader(
    (message) => messages.push(message),
    (text) => comments.push(text),
  );
  for (const chunk of chunks) reader.push(chunk);
  return { messages, comments };
}

describe('formatSseMessage', () => {
  it('writes event, id and one data line per line of the data', () => {
    expect(formatSseMessage({ event: 'run', id: '7', data: 'a\nb\r\nc' })).toBe('event: run\nid: 7\ndata: a\ndata: b\ndata: c\n\n');
  });

  it('refuses a line break in the event name or id, which would forge a field', () => {
    expect(() => formatSseMessage({ event: 'run\ndata: x', data: '' })).toThrow(/line break/);
    expect(() => formatSseMessage({ id: '1\r2', data: '' })).toThrow(/line break/);
    expect(() => formatSseComment('a\nb')).toThrow(/line break/);
  });

  it('round-trips any data through the reader, however the stream is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            event: fc.constantFrom('run', 'session'),
            id: fc.nat().map(String),
            data: fc.string({ unit: fc.constantFrom('a', ' ', ':', '\n', '\r', 'é', '{') }),
          }),
          { maxLength: 6 },
        ),
        fc.array(fc.nat({ max: 40 }), { maxLength: 8 }),
        (sent, cuts) => {
          const text = sent.map((message) => formatSseMessage(message)).join(formatSseComment('heartbeat'));
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const point of points) {
            chunks.push(text.slice(from, point));
            from = point;
          }
          chunks.push(text.slice(from));
          const { messages, comments } = readAll(chunks);
          expect(messages).toEqual(sent.map((message) => ({ ...message, data: message.data.replace(/\r\n|\r/g, '\n') })));
          expect(comments).toHaveLength(Math.max(0, sent.length - 1));
        },
      ),
      { numRuns: 200 },
    );
  });
});
