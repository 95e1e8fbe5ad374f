export interface ReceivedSseMessage {
  /** `message` when the server named none. */
  readonly event: string;
  readonly id?: string;
  readonly data: string;
}

/**
 * An incremental reader of a text/event-stream, as EventSource reads it: chunks may split lines
 * anywhere, `data:` lines join with `\n`, comments are skipped. Used by the tests and the
 * benchmark to read the stream the way a browser would.
 */
export function createSseReader(onMessage: (message: ReceivedSseMessage) => void, onComment?: (text: string) => void) {
  let buffer = '';
  let event: string | undefined;
  let id: string | undefined;
  let data: string[] = [];

  const dispatch = (): void => {
    if (data.length > 0) onMessage({ event: event ?? 'message', ...(id !== undefined ? { id } : {}), data: data.join('\n') });
    event = undefined;
    id = undefined;
    data = [];
  };

  const line = (text: string): void => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) {
      onComment?.(text.slice(1).trimStart());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  };

  return {
    push(chunk: string): void {
      buffer += chunk;
      let start = 0;
      // indexOf beats a regular expression here; `\r` is rare, so its position is searched once and reused.
      let carriageReturn = buffer.indexOf('\r');
      for (;;) {
        if (carriageReturn !== -1 && carriageReturn < start) carriageReturn = buffer.indexOf('\r', start);
        const newline = buffer.indexOf('\n', start);
        let end: number;
        let next: number;
        if (carriageReturn !== -1 && (newline === -1 || carriageReturn < newline)) {
          // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
          if (carriageReturn === buffer.length - 1) break;
          end = carriageReturn;
          next = newline === carriageReturn + 1 ? newline + 1 : carriageReturn + 1;
        } else if (newline !== -1) {
          end = newline;
          next = newline + 1;
        } else {
          break;
        }
        line(buffer.slice(start, end));
        start = next;
      }
      buffer = buffer.slice(start);
    },
  };
}
