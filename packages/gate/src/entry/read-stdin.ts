import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

export type StdinRead = { readonly kind: 'read'; readonly text: string } | { readonly kind: 'late' } | { readonly kind: 'stream' };

/** The socket that put stdin into non-blocking mode; kept so it is never collected (and fd 0 closed) while the hook runs. */
const held: unknown[] = [];

/**
 * Makes a socket stdin (what Claude Code gives its hooks) non-blocking the way process.stdin would,
 * without starting Node's stream machinery on it: the hook then reads it synchronously.
 */
function nonBlockingSocket(): void {
  const { Socket } = createRequire(import.meta.url)('node:net') as typeof import('node:net');
  held.push(new Socket({ fd: 0, readable: true, writable: false, manualStart: true } as ConstructorParameters<typeof Socket>[0]));
}

/**
 * Reads all of the hook's stdin now, without Node's stream stack (which costs a hook process more
 * than many decisions do), and never past `budgetMs`: the read is non-blocking, so an agent that never
 * closes stdin makes it `late` (the caller refuses the call) instead of hanging past the agent's own
 * timeout, which would let the call through. A FIFO (what Codex gives) is opened again non-blocking
 * through /proc; a socket (Claude Code) is made non-blocking as process.stdin would make it; a file is
 * read whole. Anything else (a terminal) is `stream`: the caller reads process.stdin as before.
 */
export function readStdinNow(budgetMs: number, now: () => number = Date.now): StdinRead {
  let fd = 0;
  try {
    const stat = fstatSync(0);
    if (stat.isFile()) return { kind: 'read', text: readFileSync(0, 'utf8') };
    if (stat.isFIFO()) fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    else if (stat.isSocket()) nonBlockingSocket();
    else return { kind: 'stream' };
  } catch {
    return { kind: 'stream' };
  }
  const until = now() + budgetMs;
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  try {
    for (;;) {
      let count: number;
      try {
        count = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          // Nothing read yet: the stream can still try. Part read: what came is the event (and will not parse).
          if (chunks.length === 0) return { kind: 'stream' };
          break;
        }
        if (now() >= until) return { kind: 'late' };
        Atomics.wait(pause, 0, 0, 2);
        continue;
      }
      if (count === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, count)));
    }
  } finally {
    if (fd !== 0) closeSync(fd);
  }
  return { kind: 'read', text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * Stdin already read, in the shape the hook command takes it: that command only iterates its stdin
 * (readAllText), and process.stdin, which would build Node's stream stack, is never touched.
 */
export function stdinOfText(text: string): NodeJS.ReadableStream {
  const iterable = {
    async *[Symbol.asyncIterator]() {
      yield text;
    },
  };
  return iterable as unknown as NodeJS.ReadableStream;
}
