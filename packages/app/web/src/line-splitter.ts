/**
 * Cuts streamed text into whole lines, so a run file can be read while it downloads. A line split
 * across two chunks is held back until its newline arrives; `end` returns a last unterminated line.
 */
export class LineSplitter {
  private rest = '';

  push(chunk: string): string[] {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    return lines;
  }

  end(): string | undefined {
    const last = this.rest;
    this.rest = '';
    return last === '' ? undefined : last;
  }
}
