const CHUNK_BITS = 6;
const CHUNK_SIZE = 1 << CHUNK_BITS;

/**
 * An immutable list whose `push` and `set` copy one chunk of 64 items plus the short list of
 * chunks, never the whole list. The reducer keeps thousands of rounds in one, so an event costs
 * O(64 + n/64), not O(n), while every state stays a value React can compare by reference.
 */
export class PersistentList<T> implements Iterable<T> {
  static empty<T>(): PersistentList<T> {
    return new PersistentList<T>([], 0);
  }

  static from<T>(items: Iterable<T>): PersistentList<T> {
    const all = [...items];
    const chunks: T[][] = [];
    for (let index = 0; index < all.length; index += CHUNK_SIZE) chunks.push(all.slice(index, index + CHUNK_SIZE));
    return new PersistentList(chunks, all.length);
  }

  private cachedArray: readonly T[] | undefined;

  private constructor(
    private readonly chunks: readonly (readonly T[])[],
    readonly length: number,
  ) {}

  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    return this.chunks[index >> CHUNK_BITS]?.[index & (CHUNK_SIZE - 1)];
  }

  push(item: T): PersistentList<T> {
    const last = this.chunks.length - 1;
    const lastChunk = this.chunks[last];
    if (lastChunk !== undefined && lastChunk.length < CHUNK_SIZE) {
      const chunks = this.chunks.slice();
      chunks[last] = [...lastChunk, item];
      return new PersistentList(chunks, this.length + 1);
    }
    return new PersistentList([...this.chunks, [item]], this.length + 1);
  }

  set(index: number, item: T): PersistentList<T> {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) {
      throw new RangeError(`index ${index} is outside a list of ${this.length}`);
    }
    const chunkIndex = index >> CHUNK_BITS;
    const chunk = (this.chunks[chunkIndex] ?? []).slice();
    chunk[index & (CHUNK_SIZE - 1)] = item;
    const chunks = this.chunks.slice();
    chunks[chunkIndex] = chunk;
    return new PersistentList(chunks, this.length);
  }

  /** A plain array, built once per list and then reused: views can call it on every render. */
  toArray(): readonly T[] {
    this.cachedArray ??= this.chunks.flat() as T[];
    return this.cachedArray;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }

  toJSON(): readonly T[] {
    return this.toArray();
  }
}
