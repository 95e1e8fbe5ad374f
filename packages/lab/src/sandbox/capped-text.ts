import type { CappedText } from '@holdfast/core/contract';

/** Collects bytes up to `cap`, counting what it drops, so output and diffs never grow a run file without bound. */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.total += buffer.length;
    const room = this.cap - this.kept;
    if (room <= 0) return;
    const part = buffer.length <= room ? buffer : buffer.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  result(): CappedText {
    // A cut can split a multi-byte character; the decoder turns the stray bytes into U+FFFD.
    return { text: Buffer.concat(this.chunks).toString('utf8'), truncated: this.total > this.kept, bytes: this.total };
  }
}

export function capText(text: string, cap: number): CappedText {
  const buffer = new CappedBuffer(cap);
  buffer.push(text);
  return buffer.result();
}

/**
 * Keeps the last `cap` bytes, counting what it drops: a test runner prints its verdict at the end,
 * so that is the part of a command's output a reader needs.
 */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.total += buffer.length;
    this.chunks.push(buffer);
    this.kept += buffer.length;
    while (this.kept > this.cap && this.chunks.length > 0) {
      const first = this.chunks[0]!;
      const excess = this.kept - this.cap;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
      }
    }
  }

  result(): CappedText {
    const truncated = this.total > this.kept;
    return { text: Buffer.concat(this.chunks).toString('utf8'), truncated, bytes: this.total, ...(truncated ? { kept: 'tail' as const } : {}) };
  }
}
