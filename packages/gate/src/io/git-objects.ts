import { ByteStream } from './byte-stream.js';
import { SnapshotError, startGit } from './git-process.js';
import type { GitOptions } from './git-process.js';

const HEAD_BYTES = 8000;

/** One object as `git cat-file --batch` gave it: its bytes, or only its size when it was larger than the reader's limit. */
export type GitObject =
  | { readonly kind: 'read'; readonly id: string; readonly type: string; readonly bytes: Buffer }
  /** `head`: the first bytes (up to 8,000, where git itself looks for a NUL to call a file binary). */
  | { readonly kind: 'too-large'; readonly id: string; readonly type: string; readonly size: number; readonly head: Buffer }
  | { readonly kind: 'missing'; readonly id: string };

/**
 * One `git cat-file --batch` process for a whole job, its answers streamed: an object up to `limit`
 * bytes is read whole, a larger one is skipped as it arrives (its size reported), so no blob, however
 * large, is ever held. Ids are asked in batches and answered in order.
 */
export class GitObjectReader {
  readonly #child: ReturnType<typeof startGit>;
  readonly #output: ByteStream;
  readonly #stderr: Buffer[] = [];
  readonly #exited: Promise<number | null>;

  constructor(options: GitOptions) {
    this.#child = startGit(['cat-file', '--batch'], options);
    this.#output = new ByteStream(this.#child.stdout);
    this.#child.stderr.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
    this.#child.stdin.on('error', () => undefined);
    this.#exited = new Promise((resolve) => {
      this.#child.on('error', () => resolve(null));
      this.#child.on('close', (code) => resolve(code));
    });
  }

  /**
   * Each object of `ids` (an id or any name cat-file takes, `commit:path`), in order; an object git
   * does not have is a SnapshotError naming it, or a `missing` answer when `missingAllowed`.
   */
  async read(ids: readonly string[], limit: number, missingAllowed = false): Promise<GitObject[]> {
    const objects: GitObject[] = [];
    for await (const object of this.stream(ids, limit, missingAllowed)) objects.push(object);
    return objects;
  }

  /**
   * The objects of `ids` one at a time as git sends them, all asked in one write: the caller holds one
   * object while git waits on the pipe with the next, so memory is one object (up to `limit`) and what
   * the pipe holds, however many are asked. The stream must be read to its end before the next ask.
   */
  async *stream(ids: readonly string[], limit: number, missingAllowed = false): AsyncGenerator<GitObject> {
    if (ids.length === 0) return;
    this.#child.stdin.write(`${ids.join('\n')}\n`);
    for (const asked of ids) {
      const header = await this.#output.readUntil(0x0a, 4096).catch((error: unknown) => this.#broken(error));
      const [id, type, size] = (header?.toString('utf8') ?? '').split(' ');
      if (missingAllowed && header !== undefined && header.toString('utf8').endsWith(' missing')) {
        yield { kind: 'missing', id: asked };
        continue;
      }
      if (header === undefined || id === undefined || type === undefined || size === undefined || type === 'missing' || !/^\d+$/.test(size)) {
        throw new SnapshotError('E_GIT_READ', `git cat-file could not read ${asked} (${header?.toString('utf8') ?? this.#said()})`);
      }
      const length = Number(size);
      if (length > limit) {
        const head = await this.#output.read(Math.min(HEAD_BYTES, length)).catch((error: unknown) => this.#broken(error));
        await this.#output.skip(length + 1 - head.length).catch((error: unknown) => this.#broken(error));
        yield { kind: 'too-large', id, type, size: length, head };
      } else {
        const bytes = await this.#output.read(length + 1).catch((error: unknown) => this.#broken(error));
        yield { kind: 'read', id, type, bytes: bytes.subarray(0, length) };
      }
    }
  }

  #said(): string {
    return Buffer.concat(this.#stderr).toString('utf8').trim().split('\n')[0] ?? 'no answer';
  }

  #broken(error: unknown): never {
    throw new SnapshotError(
      'E_GIT_READ',
      `git cat-file --batch stopped answering (${error instanceof Error ? error.message : String(error)}; ${this.#said()})`,
      {
        cause: error,
      },
    );
  }

  /** Ends the process and waits for it. */
  async close(): Promise<void> {
    this.#child.stdin.end();
    await this.#exited;
  }
}
