import { Worker } from 'node:worker_threads';
import type { Rulebook } from '../../contract/index.js';
import type { JudgedReply, ReplyJudge } from './judge-reply.js';
import type { JudgeRequest } from './judge-worker.js';

export interface JudgePoolOptions {
  /** Worker threads judging at once (default 2: the machine's other work keeps the rest). */
  readonly size?: number;
  /** A reply not judged within this many ms costs its round, not the process: the worker is ended. Default 30 s. */
  readonly budgetMs?: number;
  /** The worker's entry module (the compiled judge-worker.js beside this file by default). */
  readonly entry?: URL;
}

export interface JudgePool {
  readonly judge: ReplyJudge;
  /** Ends every worker; judgements still waiting resolve as unparseable. */
  close(): Promise<void>;
}

type Answer = { id: number; ok: true; judged: JudgedReply } | { id: number; ok: false; message: string };

interface Job {
  readonly request: Omit<JudgeRequest, 'id'>;
  readonly resolve: (judged: JudgedReply) => void;
}

interface Slot {
  worker?: Worker;
  job?: { readonly id: number; readonly resolve: (judged: JudgedReply) => void; readonly timer: NodeJS.Timeout };
}

const DEFAULT_SIZE = 2;
const DEFAULT_BUDGET_MS = 30_000;

function unread(reason: string): JudgedReply {
  return { parsed: { kind: 'unparseable', reason }, checks: [] };
}

/**
 * Judges replies in worker threads, so a reply that costs seconds to read never holds up the
 * server's event loop (its API, its SSE streams, the other runs). A judgement over budget ends its
 * worker and comes back as unparseable, naming the budget: one bad reply costs one round.
 */
export function createJudgePool(options: JudgePoolOptions = {}): JudgePool {
  const size = Math.max(1, options.size ?? DEFAULT_SIZE);
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const entry = options.entry ?? new URL('./judge-worker.js', import.meta.url);
  const slots: Slot[] = Array.from({ length: size }, () => ({}));
  const waiting: Job[] = [];
  let nextId = 0;
  let closed = false;

  const finish = (slot: Slot, judged: JudgedReply, endWorker: boolean): void => {
    const job = slot.job;
    if (job === undefined) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    if (endWorker) {
      const worker = slot.worker;
      slot.worker = undefined;
      void worker?.terminate();
    }
    job.resolve(judged);
    dispatch();
  };

  const startWorker = (slot: Slot): Worker => {
    const worker = new Worker(entry);
    worker.unref();
    // A worker ended on purpose is no longer its slot's, so nothing it still says reaches a later job.
    worker.on('message', (answer: Answer) => {
      if (slot.worker !== worker || slot.job?.id !== answer.id) return;
      finish(slot, answer.ok ? answer.judged : unread(`the reply could not be judged: ${answer.message}`), false);
    });
    worker.on('error', (error) => {
      if (slot.worker === worker) finish(slot, unread(`the reply could not be judged: the judge worker failed (${error.message})`), true);
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      finish(slot, unread('the reply could not be judged: the judge worker stopped'), false);
    });
    return worker;
  };

  function dispatch(): void {
    for (const slot of slots) {
      if (closed || waiting.length === 0) return;
      if (slot.job !== undefined) continue;
      const job = waiting.shift() as Job;
      const id = nextId++;
      const worker = slot.worker ?? startWorker(slot);
      slot.worker = worker;
      const timer = setTimeout(() => finish(slot, unread(`reading and checking the reply took longer than ${budgetMs} ms; it was not read`), true), budgetMs);
      timer.unref();
      slot.job = { id, resolve: job.resolve, timer };
      worker.postMessage({ id, ...job.request } satisfies JudgeRequest);
    }
  }

  const judge: ReplyJudge = (raw: string, existing: readonly string[], rulebook: Rulebook) =>
    new Promise<JudgedReply>((resolve) => {
      if (closed) {
        resolve(unread('the reply could not be judged: the server is shutting down'));
        return;
      }
      waiting.push({ request: { raw, existing: [...existing], rulebook }, resolve });
      dispatch();
    });

  return {
    judge,
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.resolve(unread('the reply could not be judged: the server is shutting down'));
      await Promise.all(
        slots.map(async (slot) => {
          const worker = slot.worker;
          slot.worker = undefined;
          finish(slot, unread('the reply could not be judged: the server is shutting down'), false);
          await worker?.terminate();
        }),
      );
    },
  };
}

/**
 * The pool when running compiled (the shipped CLI and server); the calling thread when running
 * from TypeScript sources (tests), where there is no compiled worker entry to start.
 */
export function canJudgeInWorkers(): boolean {
  return import.meta.url.endsWith('.js');
}
