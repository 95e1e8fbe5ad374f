import { Worker } from 'node:worker_threads';

/** What became of one request: the worker's answer, or why there is none. */
export type PoolOutcome<A> =
  { readonly ok: true; readonly value: A } | { readonly ok: false; readonly reason: 'failed' | 'crashed' | 'over-budget' | 'closed'; readonly message: string };

export interface WorkerPoolOptions {
  /** The worker's entry module; it answers with serveRequests (serve-requests.ts). */
  readonly entry: URL;
  /** Workers at once; requests beyond them wait in order. */
  readonly size: number;
  /** A request not answered within this many ms ends its worker; the next request gets a fresh one. */
  readonly budgetMs: number;
}

export interface WorkerPool<Q, A> {
  run(request: Q): Promise<PoolOutcome<A>>;
  /** Ends every worker; requests still waiting come back `closed`. */
  close(): Promise<void>;
}

/** The messages between a pool and its workers. */
export type WorkerRequest<Q> = { readonly id: number; readonly request: Q };
export type WorkerAnswer<A> =
  { readonly id: number; readonly ok: true; readonly value: A } | { readonly id: number; readonly ok: false; readonly message: string };

interface Job<Q, A> {
  readonly request: Q;
  readonly resolve: (outcome: PoolOutcome<A>) => void;
}

interface Slot<Q, A> {
  worker?: Worker;
  job?: { readonly id: number; readonly resolve: Job<Q, A>['resolve']; readonly timer: NodeJS.Timeout };
}

/**
 * CPU-heavy work in worker threads, so it never holds up the event loop of the process that asks
 * (the server's API and streams). A request over budget ends its worker: it costs itself, nothing else.
 */
export function createWorkerPool<Q, A>(options: WorkerPoolOptions): WorkerPool<Q, A> {
  const slots: Slot<Q, A>[] = Array.from({ length: Math.max(1, options.size) }, () => ({}));
  const waiting: Job<Q, A>[] = [];
  let nextId = 0;
  let closed = false;

  const finish = (slot: Slot<Q, A>, outcome: PoolOutcome<A>, endWorker: boolean): void => {
    const job = slot.job;
    if (job === undefined) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    if (endWorker) {
      const worker = slot.worker;
      slot.worker = undefined;
      void worker?.terminate();
    }
    job.resolve(outcome);
    dispatch();
  };

  const startWorker = (slot: Slot<Q, A>): Worker => {
    const worker = new Worker(options.entry);
    worker.unref();
    // A worker ended on purpose is no longer its slot's, so nothing it still says reaches a later job.
    worker.on('message', (answer: WorkerAnswer<A>) => {
      if (slot.worker !== worker || slot.job?.id !== answer.id) return;
      finish(slot, answer.ok ? { ok: true, value: answer.value } : { ok: false, reason: 'failed', message: answer.message }, false);
    });
    worker.on('error', (error) => {
      if (slot.worker === worker) finish(slot, { ok: false, reason: 'crashed', message: `the worker failed (${error.message})` }, true);
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      finish(slot, { ok: false, reason: 'crashed', message: 'the worker stopped' }, false);
    });
    return worker;
  };

  function dispatch(): void {
    for (const slot of slots) {
      if (closed || waiting.length === 0) return;
      if (slot.job !== undefined) continue;
      const job = waiting.shift() as Job<Q, A>;
      const id = nextId++;
      const worker = slot.worker ?? startWorker(slot);
      slot.worker = worker;
      const timer = setTimeout(
        () => finish(slot, { ok: false, reason: 'over-budget', message: `took longer than ${options.budgetMs} ms` }, true),
        options.budgetMs,
      );
      timer.unref();
      slot.job = { id, resolve: job.resolve, timer };
      worker.postMessage({ id, request: job.request } satisfies WorkerRequest<Q>);
    }
  }

  const closing: PoolOutcome<A> = { ok: false, reason: 'closed', message: 'the server is shutting down' };
  return {
    run: (request) =>
      new Promise((resolve) => {
        if (closed) {
          resolve(closing);
          return;
        }
        waiting.push({ request, resolve });
        dispatch();
      }),
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.resolve(closing);
      await Promise.all(
        slots.map(async (slot) => {
          const worker = slot.worker;
          slot.worker = undefined;
          finish(slot, closing, false);
          await worker?.terminate();
        }),
      );
    },
  };
}

/**
 * Whether compiled worker entries exist beside this module: true for the shipped CLI and server,
 * false when running from TypeScript sources (tests), where the work stays on the calling thread.
 */
export function canUseWorkers(): boolean {
  return import.meta.url.endsWith('.js');
}
