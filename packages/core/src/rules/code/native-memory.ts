import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parsedTextLength } from './parsed-text.js';

/**
 * How much text is parsed into syntax trees between two full collections. A tree is native memory,
 * many times its source, and a full collection of verify's small heap costs a few tens of
 * milliseconds: over hono's 505 commits, 256 KiB keeps RSS where collecting after every 512 KiB of
 * text read did (about 145 MB), with fewer collections wherever files are read that no rule parses.
 * A caller whose own baseline is smaller than its trees can hold asks for less (the run: RUN_COLLECT_EVERY).
 */
const COLLECT_EVERY = 256 * 1024;

/**
 * The run's budget. A round parses a few small files (a 73-character file is a 4 KiB tree) and a run
 * of 1,000 calls peaks near 112 MB, so 256 KiB of text (about 12 MB of dead trees, and the heap's own
 * garbage beside them until the collection) put 20,000 calls at 134 MB; 64 KiB keeps them at 117 MB.
 * The collections are not free: measured side by side (20,000 calls, load 10 to 15) the run's CPU was
 * 17.8 s without them, 19.1 s at 256 KiB, 20.7 s at 128 KiB and 22.9 s at 64 KiB; 1,000 calls (one
 * collection) cost the same either way. Fewer trees that die old would make both smaller.
 */
export const RUN_COLLECT_EVERY = 64 * 1024;

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
 * Keeps memory flat over a long reader of parsed files (verify over a range, a run over many rounds).
 * Each parsed file holds a syntax tree in native memory (about 50 bytes a character of source) that is
 * freed only when its small JavaScript handle is collected (and its finalizer has run, on a later turn
 * of the event loop). A handle that outlives two scavenges (a tree kept over an await: a round's checks,
 * a change's files) dies in the old generation, which V8 collects only when its own small heap has
 * grown, blind to the native memory: over hono's 505 commits verify's RSS grew to 490 MB with a 56 MB
 * heap, and a run of 20,000 calls held 60 MB of dead trees before its first full collection. Called
 * after each file judged and each round played; collects in full once `collectEvery` of text has been
 * parsed into trees since the last collection (text that no rule parsed, such as JSON, markdown or a
 * file no code rule reaches, leaves no tree and asks for none).
 */
export async function boundNativeMemory(collectEvery = COLLECT_EVERY): Promise<void> {
  const parsed = parsedTextLength();
  if (parsed - parsedAtCollection < collectEvery) return;
  parsedAtCollection = parsed;
  const collectNow = collector();
  if (collectNow === undefined) return;
  collectNow();
  // Native finalizers run on a later turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

let parsedAtCollection = 0;
