/** Pieces joined into one chunk at a time: the pending list never grows past this. */
const CHUNK_PIECES = 1024;

/**
 * An output built from many small pieces, joined once. Pieces are joined a chunk at a time, so
 * the list of pending pieces stays small and short-lived: a single array of a million one-character
 * pieces is reallocated in V8's large-object space as it grows and survives into full GCs, which
 * made building the output grow faster than the text. Same result as `pieces.join('')`.
 */
export class PieceBuffer {
  private readonly chunks: string[] = [];
  private readonly pending: string[] = [];

  push(piece: string): void {
    this.pending.push(piece);
    if (this.pending.length === CHUNK_PIECES) {
      this.chunks.push(this.pending.join(''));
      this.pending.length = 0;
    }
  }

  join(): string {
    if (this.chunks.length === 0) return this.pending.join('');
    return this.chunks.join('') + this.pending.join('');
  }
}
