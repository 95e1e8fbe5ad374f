export interface SseMessage {
  readonly event?: string;
  readonly id?: string;
  readonly data: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

function assertSingleLine(field: string, value: string): void {
  if (LINE_BREAK.test(value)) throw new TypeError(`an SSE ${field} may not contain a line break`);
}

/**
 * One SSE message. Multi-line data becomes one `data:` line per line (the client joins them with
 * `\n`); a line break inside `event` or `id` would forge a field, so it is refused.
 */
export function formatSseMessage(message: SseMessage): string {
  let text = '';
  if (message.event !== undefined) {
    assertSingleLine('event name', message.event);
    text += `event: ${message.event}\n`;
  }
  if (message.id !== undefined) {
    assertSingleLine('id', message.id);
    text += `id: ${message.id}\n`;
  }
  for (const line of message.data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** A comment line: ignored by EventSource, but it keeps proxies and idle timers from closing the stream. */
export function formatSseComment(text: string): string {
  assertSingleLine('comment', text);
  return `: ${text}\n\n`;
}
