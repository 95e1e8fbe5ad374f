import type { Rulebook } from '@holdfast/core/contract';
import { createWorkerPool } from '../../thread-pool/index.js';
import type { PoolOutcome } from '../../thread-pool/index.js';
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

const DEFAULT_SIZE = 2;
const DEFAULT_BUDGET_MS = 30_000;

function unread(outcome: Exclude<PoolOutcome<JudgedReply>, { ok: true }>, budgetMs: number): JudgedReply {
  const reason =
    outcome.reason === 'over-budget'
      ? `reading and checking the reply took longer than ${budgetMs} ms; it was not read`
      : `the reply could not be judged: ${outcome.message}`;
  return { parsed: { kind: 'unparseable', reason }, checks: [] };
}

/**
 * Judges replies in worker threads, so a reply that costs seconds to read never holds up the
 * server's event loop (its API, its SSE streams, the other runs). A judgement over budget ends its
 * worker and comes back as unparseable, naming the budget: one bad reply costs one round.
 */
export function createJudgePool(options: JudgePoolOptions = {}): JudgePool {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const pool = createWorkerPool<JudgeRequest, JudgedReply>({
    entry: options.entry ?? new URL('./judge-worker.js', import.meta.url),
    size: options.size ?? DEFAULT_SIZE,
    budgetMs,
  });
  return {
    judge: async (raw: string, existing: readonly string[], rulebook: Rulebook, existingContent?: Readonly<Record<string, string>>) => {
      const outcome = await pool.run({ raw, existing: [...existing], rulebook, ...(existingContent === undefined ? {} : { existingContent }) });
      return outcome.ok ? outcome.value : unread(outcome, budgetMs);
    },
    close: () => pool.close(),
  };
}
