import type { Request, Response } from 'express';
import type { RunEvent, SessionMessage } from '@holdfast/core/contract';
import { ApiError } from './api-error.js';
import type { RunRegistry } from './live-run.js';
import { readSavedRun } from './run-files.js';
import { formatSseComment, formatSseMessage } from './sse-message.js';
import type { ServerContext } from './server-context.js';

export interface StreamOptions {
  readonly heartbeatMs: number;
}

/** The seq the client already has: `Last-Event-ID` (set by EventSource on reconnect), else `?lastEventId=`. */
function lastEventIdOf(request: Request): number {
  const header = request.headers['last-event-id'];
  const query = request.query['lastEventId'];
  const raw = typeof header === 'string' && header !== '' ? header : typeof query === 'string' ? query : undefined;
  if (raw === undefined) return -1;
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError(400, 'E_LAST_EVENT_ID', `Last-Event-ID must be an event seq (a whole number), got "${raw.slice(0, 40)}".`);
  return Number(raw);
}

// Every subscriber of a run sends the same bytes for an event: serialize it once.
const formatted = new WeakMap<RunEvent, string>();

function runMessage(event: RunEvent): string {
  let message = formatted.get(event);
  if (message === undefined) {
    message = formatSseMessage({ event: 'run', id: String(event.seq), data: JSON.stringify(event) });
    formatted.set(event, message);
  }
  return message;
}

/**
 * Writes through a cork released on the next tick: a burst of events (a replayed past, a round
 * that ends with several events) leaves as a few packets, not one per event, without delaying
 * a lone event.
 */
function corkedWriter(response: Response): (text: string) => void {
  let corked = false;
  return (text) => {
    if (!corked) {
      corked = true;
      response.cork();
      process.nextTick(() => {
        corked = false;
        response.uncork();
      });
    }
    response.write(text);
  };
}

function sessionMessage(session: SessionMessage): string {
  return formatSseMessage({ event: 'session', data: JSON.stringify(session) });
}

export function openStream(response: Response): void {
  response.status(200);
  response.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  response.flushHeaders();
  // An in-process request (tests) has a socket stand-in without Nagle's switch.
  const socket = response.socket as { setNoDelay?: (noDelay: boolean) => unknown } | null;
  if (typeof socket?.setNoDelay === 'function') socket.setNoDelay(true);
}

/**
 * GET /api/run/:id/stream. `:id` is a run this process is executing, or a saved run's file name.
 *
 * - First an `event: session` message ({runId, token, live}); only a live run's stream carries
 *   its approval token.
 * - Then every event with seq after Last-Event-ID, as `event: run` / `id: <seq>`, then live ones,
 *   with a `: heartbeat` comment every `heartbeatMs`.
 * - The server ends the stream after the last event of a finished run (and of a saved run). A
 *   reconnect that has nothing left to receive gets 204 No Content, which tells EventSource to
 *   stop reconnecting, so a finished run never turns into a reconnect loop.
 */
export async function streamRun(request: Request, response: Response, registry: RunRegistry, context: ServerContext, options: StreamOptions): Promise<void> {
  const id = String(request.params['id']);
  const afterSeq = lastEventIdOf(request);
  const live = registry.get(id);
  if (live === undefined) {
    const name = id.endsWith('.jsonl') ? id : `${id}.jsonl`;
    const { events } = await readSavedRun(context.runsDir, name);
    const missed = events.filter((event) => event.seq > afterSeq);
    if (missed.length === 0 && afterSeq >= 0) {
      response.status(204).end();
      return;
    }
    const runId = events.find((event) => event.type === 'run-start')?.runId ?? events[0]?.runId ?? id;
    openStream(response);
    // One write: a saved run is sent whole, then the stream ends.
    response.end(sessionMessage({ runId, token: '', live: false }) + missed.map(runMessage).join(''));
    return;
  }
  const lastSeq = live.events.at(-1)?.seq ?? -1;
  if (live.finished && afterSeq >= 0 && afterSeq >= lastSeq) {
    response.status(204).end();
    return;
  }
  openStream(response);
  const write = corkedWriter(response);
  write(sessionMessage({ runId: live.runId, token: live.token, live: !live.finished }));
  const heartbeat = setInterval(() => write(formatSseComment('heartbeat')), options.heartbeatMs);
  let unsubscribe = (): void => {};
  const close = (): void => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  response.on('close', close);
  unsubscribe = live.follow(afterSeq, {
    event: (event) => write(runMessage(event)),
    end: () => {
      close();
      response.end();
    },
  });
}
