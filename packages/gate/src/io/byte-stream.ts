import type { Readable } from 'node:stream';

/** How much a stream holds unread before it pauses its source: what keeps a reader's memory flat whatever git sends. */
const HIGH_WATER = 1024 * 1024;

/**
 * A child's output read in pieces as a parser asks for them (up to a delimiter, a number of bytes,
 * bytes skipped unread), with the source paused while more than HIGH_WATER waits: a reader of a
 * long `git diff-tree --stdin` or `cat-file --batch` stream holds what it asked for and little more.
 */
export class ByteStream {
  readonly #source: Readable;
  readonly #chunks: Buffer[] = [];
  #buffered = 0;
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(source: Readable) {
    this.#source = source;
    source.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      if (this.#buffered > HIGH_WATER) source.pause();
      this.#notify();
    });
    source.on('end', () => {
      this.#ended = true;
      this.#notify();
    });
    source.on('error', (error: Error) => {
      this.#failure = error;
      this.#ended = true;
      this.#notify();
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Waits for more bytes; false when the source has ended (or failed: then it throws). */
  async #more(): Promise<boolean> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#ended) return false;
    this.#source.resume();
    await new Promise<void>((resolve) => (this.#wake = resolve));
    if (this.#failure !== undefined) throw this.#failure;
    return true;
  }

  #take(count: number): Buffer {
    const parts: Buffer[] = [];
    let left = count;
    while (left > 0) {
      const chunk = this.#chunks[0] as Buffer;
      if (chunk.length <= left) {
        parts.push(chunk);
        this.#chunks.shift();
        left -= chunk.length;
      } else {
        parts.push(chunk.subarray(0, left));
        this.#chunks[0] = chunk.subarray(left);
        left = 0;
      }
    }
    this.#buffered -= count;
    if (this.#buffered <= HIGH_WATER) this.#source.resume();
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, count);
  }

  /**
   * The bytes up to the next `delimiter` (which is read and dropped), or undefined when the stream
   * ended before any byte. `limit` bounds what a missing delimiter can make it hold.
   */
  async readUntil(delimiter: number, limit: number): Promise<Buffer | undefined> {
    let scanned = 0;
    for (;;) {
      let offset = 0;
      for (const chunk of this.#chunks) {
        if (offset + chunk.length > scanned) {
          const at = chunk.indexOf(delimiter, Math.max(0, scanned - offset));
          if (at >= 0) {
            const bytes = this.#take(offset + at);
            this.#take(1);
            return bytes;
          }
        }
        offset += chunk.length;
      }
      scanned = offset;
      if (scanned > limit) throw new Error(`a field longer than ${limit} bytes`);
      if (!(await this.#more())) {
        if (scanned === 0) return undefined;
        throw new Error('the stream ended inside a field');
      }
    }
  }

  /** Exactly `count` bytes. */
  async read(count: number): Promise<Buffer> {
    while (this.#buffered < count) if (!(await this.#more())) throw new Error(`the stream ended ${count - this.#buffered} bytes early`);
    return count === 0 ? Buffer.alloc(0) : this.#take(count);
  }

  /** Drops `count` bytes as they arrive, never holding more than one chunk of them. */
  async skip(count: number): Promise<void> {
    let left = count;
    while (left > 0) {
      if (this.#buffered === 0 && !(await this.#more())) throw new Error(`the stream ended ${left} bytes early`);
      const now = Math.min(left, this.#buffered);
      if (now > 0) this.#take(now);
      left -= now;
    }
  }
}
