import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How far memory outside the JavaScript heap may grow before verify asks for a full collection. */
const NATIVE_SLACK = 96 * 1024 * 1024;

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
 * hono's 505 commits RSS grew to 490 MB with a 56 MB heap. Called between rounds of checks; collects
 * when memory outside the heap has grown by more than NATIVE_SLACK over where it settled last.
 */
export async function boundNativeMemory(): Promise<void> {
  const usage = process.memoryUsage();
  const native = usage.rss - usage.heapTotal;
  settled ??= native;
  if (native < settled + NATIVE_SLACK) return;
  collector()?.();
  // Native finalizers run on a later turn of the event loop: wait for them before saying where memory settled.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  const after = process.memoryUsage();
  settled = Math.max(settled, after.rss - after.heapTotal);
}

let settled: number | undefined;
