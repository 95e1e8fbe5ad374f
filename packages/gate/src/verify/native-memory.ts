import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How much text is judged between two full collections. The syntax trees of parsed files are native
 * memory, some tens of bytes for each byte of source, so 2 MiB of source leaves well under 100 MB of
 * trees to free; a full collection of verify's small heap costs a few milliseconds.
 */
const COLLECT_EVERY = 512 * 1024;

let collect: (() => void) | undefined | null = null;

/** The collector, exposed on first use (Node's documented `--expose-gc` made callable at run time); undefined where that is refused. */
function collector(): (() => void) | undefined {
  if (collect !== null) return collect;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return (collect = exposed);
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  } catch {
    collect = undefined;
  }
  return collect;
}

/**
 * Keeps verify's memory flat over a long range. Each parsed file holds a syntax tree in native memory
 * that is freed only when its small JavaScript handle is collected (and its finalizer has run, on a
 * later turn of the event loop), and a heap of a few tens of MB is rarely collected in full: over
 * hono's 505 commits RSS grew to 490 MB with a 56 MB heap, and to 320 MB when a collection was asked
 * for only once RSS had grown (memory a collection frees is not always given back, so "where it
 * settled" only rose). Called after each file judged with the length of its text; collects in full
 * once COLLECT_EVERY of text has been judged since the last collection: with it RSS stays at about
 * 110 MB over the same range.
 */
export async function boundNativeMemory(judged: number): Promise<void> {
  sinceCollection += judged;
  if (sinceCollection < COLLECT_EVERY) return;
  sinceCollection = 0;
  const collectNow = collector();
  if (collectNow === undefined) return;
  collectNow();
  // Native finalizers run on a later turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

let sinceCollection = 0;
