import { dirname } from 'node:path';
import { ReplyReferences, openRegularFile } from '@holdfast/lab/store';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { RunEventSchema, jsonOrUndefined } from '@holdfast/core/contract';
import type { RunEvent } from '@holdfast/core/contract';
import { leanRunFileLine } from './lean-run.js';
import { summarizeRunLines } from './summary-run.js';

/** Where one line sits in the file, in bytes, without its newline. */
interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** A saved run read once: its lean JSONL, and where each round's lines are in the file. */
export interface RunFileIndex {
  /** The lean JSONL as UTF-8, ready to send. */
  readonly lean: Buffer;
  /**
   * The same, gzipped (computed once, on first use). JSON this repetitive shrinks about tenfold,
   * and the browser inflates natively faster than it receives the plain bytes, even on loopback.
   */
  gzipped(): Promise<Buffer>;
  /** The summary view (`summarizeRunLines` of the lean text), gzipped or not; computed once, on first use. */
  summary(gzipped: boolean): Promise<Buffer>;
  readonly rounds: ReadonlyMap<string, readonly LineRange[]>;
}

const gzipAsync = promisify(gzip);
/** Fast rather than small: the body is compressed once per file version and sent many times. */
const GZIP_LEVEL = 4;

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');
const ROUND_ID = Buffer.from('"roundId"');
const ESCAPE = Buffer.from('\\u');

/**
 * Builds the lean text and the round index of a run file's bytes in one pass. The lean text is kept
 * as bytes, line by line, never as one string: a run file past V8's longest string (about 512 MB)
 * is served like any other.
 */
function indexRunFile(bytes: Buffer): RunFileIndex {
  const chunks: Buffer[] = [];
  const rounds = new Map<string, LineRange[]>();
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(NEWLINE, start);
    // A torn last line keeps its missing newline, so the reader still sees it as cut off mid-write.
    const terminated = end !== -1;
    if (!terminated) end = bytes.length;
    const slice = bytes.subarray(start, end);
    // A line that names no round (and escapes nothing that could spell one) is neither an arm's end
    // nor a round's: it stays as it is, unread.
    if (!slice.includes(ROUND_ID) && !slice.includes(ESCAPE)) {
      chunks.push(slice);
      if (terminated) chunks.push(NEWLINE_BYTES);
      start = end + 1;
      continue;
    }
    const original = slice.toString('utf8');
    const line = leanRunFileLine(original);
    chunks.push(line.text === original ? slice : Buffer.from(line.text, 'utf8'));
    if (terminated) chunks.push(NEWLINE_BYTES);
    if (line.roundId !== undefined) {
      const ranges = rounds.get(line.roundId);
      if (ranges === undefined) rounds.set(line.roundId, [{ start, end }]);
      else ranges.push({ start, end });
    }
    start = end + 1;
  }
  const lean = Buffer.concat(chunks);
  let gzipped: Promise<Buffer> | undefined;
  let summary: Buffer | undefined;
  let summaryGzipped: Promise<Buffer> | undefined;
  const summaryBytes = (): Buffer => {
    summary ??= Buffer.from(summarizeRunLines(linesOf(lean)), 'utf8');
    return summary;
  };
  return {
    lean,
    gzipped: () => {
      gzipped ??= gzipAsync(lean, { level: GZIP_LEVEL });
      return gzipped;
    },
    summary: (zipped) => {
      if (!zipped) return Promise.resolve(summaryBytes());
      summaryGzipped ??= gzipAsync(summaryBytes(), { level: GZIP_LEVEL });
      return summaryGzipped;
    },
    rounds,
  };
}

/** The lines of a JSONL text held as bytes, the last being what follows the last newline (empty when it ends with one). */
function* linesOf(bytes: Buffer): Generator<string> {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) {
      yield bytes.toString('utf8', start);
      return;
    }
    yield bytes.toString('utf8', start, end);
    start = end + 1;
  }
}

interface CacheEntry {
  readonly key: string;
  readonly index: Promise<RunFileIndex>;
}

/**
 * Run file indexes by path, valid while the file's size and mtime are unchanged (a run still being
 * written grows, so its next request reads it again). Opening a saved run twice, or a run and then
 * its rounds, reads and trims the file once. Only the last few files are kept: a lean 5,000-round
 * run is about half its file's size in memory.
 */
export class RunIndexCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly capacity = 4) {}

  /** The index of the run file at `path`, read only when it is a regular file inside `root` (see `openRegularFile`). */
  async get(path: string, root = dirname(path)): Promise<RunFileIndex> {
    const { handle, stats: info } = await openRegularFile(root, path);
    const key = `${info.size}:${info.mtimeMs}`;
    const cached = this.entries.get(path);
    if (cached !== undefined && cached.key === key) {
      this.entries.delete(path);
      this.entries.set(path, cached);
      await handle.close();
      return cached.index;
    }
    const index = handle
      .readFile()
      .finally(() => handle.close())
      .then(indexRunFile);
    const entry: CacheEntry = { key, index };
    this.entries.delete(path);
    this.entries.set(path, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    // A failed read is not remembered: the next request tries again.
    index.catch(() => {
      if (this.entries.get(path) === entry) this.entries.delete(path);
    });
    return index;
  }

  forget(path: string): void {
    this.entries.delete(path);
  }
}

/**
 * The full events of one round, read from the file at the ranges the index found, or undefined
 * when the file no longer holds them there (it was replaced since it was indexed).
 */
export async function readRoundEvents(path: string, roundId: string, ranges: readonly LineRange[], root = dirname(path)): Promise<RunEvent[] | undefined> {
  const { handle } = await openRegularFile(root, path);
  try {
    const events: RunEvent[] = [];
    // The round's lines hold both arms, so a reply stored once is restored from the arm that holds it.
    const references = new ReplyReferences();
    for (const range of ranges) {
      const buffer = Buffer.alloc(range.end - range.start);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, range.start);
      if (bytesRead !== buffer.length) return undefined;
      const value = jsonOrUndefined(buffer.toString('utf8'));
      const parsed = RunEventSchema.safeParse(value);
      if (!parsed.success) {
        // The line is where the index put it but the contract refuses it: the lean view reports it too.
        if (typeof value === 'object' && value !== null && (value as { roundId?: unknown }).roundId === roundId) continue;
        return undefined;
      }
      if (!('roundId' in parsed.data) || parsed.data.roundId !== roundId) return undefined;
      events.push(references.resolve(parsed.data));
    }
    return events;
  } finally {
    await handle.close();
  }
}
