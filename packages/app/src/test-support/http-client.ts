import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { createSseReader } from '../sse-reader.js';
import type { ReceivedSseMessage } from '../sse-reader.js';

export interface JsonReply {
  status: number;
  body: unknown;
}

/** A POST as the app's own page sends it: same-origin Origin, JSON body. */
export function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: { origin: base, 'content-type': 'application/json', ...headers } }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text === '' ? undefined : (JSON.parse(text) as unknown) }));
    });
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}

export interface SseConnection {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly messages: ReceivedSseMessage[];
  readonly comments: string[];
  /** Resolves with the first message (already received or later) that satisfies `predicate`. */
  until(predicate: (message: ReceivedSseMessage) => boolean): Promise<ReceivedSseMessage>;
  /** Resolves once a comment line (`: text`) equal to `text` has been received, already or later. */
  untilComment(text: string): Promise<void>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Drops the connection, as a browser tab losing its network would. */
  disconnect(): void;
}

/** Opens an SSE stream over a real socket and reads it as EventSource would. */
export function openSse(base: string, path: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (incoming) => {
      const messages: ReceivedSseMessage[] = [];
      const comments: string[] = [];
      const waiters: { predicate: (message: ReceivedSseMessage) => boolean; resolve: (message: ReceivedSseMessage) => void }[] = [];
      const commentWaiters: { text: string; resolve: () => void }[] = [];
      const reader = createSseReader(
        (message) => {
          messages.push(message);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(message)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(message);
            }
          }
        },
        (text) => {
          comments.push(text);
          for (const waiter of [...commentWaiters]) {
            if (waiter.text === text) {
              commentWaiters.splice(commentWaiters.indexOf(waiter), 1);
              waiter.resolve();
            }
          }
        },
      );
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => reader.push(chunk));
      const ended = new Promise<void>((done) => incoming.on('end', () => done()));
      resolve({
        status: incoming.statusCode ?? 0,
        headers: incoming.headers,
        messages,
        comments,
        ended,
        until(predicate) {
          const found = messages.find(predicate);
          if (found !== undefined) return Promise.resolve(found);
          return new Promise((found) => waiters.push({ predicate, resolve: found }));
        },
        untilComment(text) {
          if (comments.includes(text)) return Promise.resolve();
          return new Promise((found) => commentWaiters.push({ text, resolve: found }));
        },
        disconnect() {
          outgoing.destroy();
        },
      });
    });
    outgoing.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    outgoing.end();
  });
}

/** A GET with any headers (fetch will not send a forged Host); resolves with the status. */
export function getStatus(base: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, base), { headers }, (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolve(incoming.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
