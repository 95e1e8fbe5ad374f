import type { CappedText } from '../contract/index.js';

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
