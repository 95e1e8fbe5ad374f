/**
 * One `/api/live/stream` for every tab of this origin. A browser holds at most six HTTP/1.1
 * connections to a host; a stream per tab would starve the third or fourth tab on a live run. Each
 * tab connects a port; the worker hands it the last snapshot at once and every later one (the raw
 * message text: the tab validates it). Workers are not throttled like hidden tabs' timers.
 */
interface ConnectEvent {
  readonly ports: readonly MessagePort[];
}

const scope = self as unknown as { onconnect: ((event: ConnectEvent) => void) | null };
const ports = new Set<MessagePort>();
let last: string | undefined;

const stream = new EventSource('/api/live/stream');
stream.addEventListener('live', (message: MessageEvent<string>) => {
  last = message.data;
  for (const port of ports) port.postMessage(last);
});

scope.onconnect = (event) => {
  const port = event.ports[0];
  if (port === undefined) return;
  ports.add(port);
  port.onmessage = (message: MessageEvent<unknown>) => {
    // A tab says goodbye when it unloads; a closed port cannot be detected otherwise.
    if (message.data === 'close') ports.delete(port);
  };
  port.start();
  if (last !== undefined) port.postMessage(last);
};
