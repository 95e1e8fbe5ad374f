import { parentPort } from 'node:worker_threads';
import type { Rulebook } from '../../contract/index.js';
import { judgeReplyHere } from './judge-reply.js';

/** One request to a judge worker; the answer carries the same id. */
export interface JudgeRequest {
  readonly id: number;
  readonly raw: string;
  readonly existing: readonly string[];
  readonly rulebook: Rulebook;
}

// The entry of a judge worker thread (see judge-pool.ts): judges one reply per message, in order.
parentPort?.on('message', (request: JudgeRequest) => {
  judgeReplyHere(request.raw, request.existing, request.rulebook).then(
    (judged) => parentPort?.postMessage({ id: request.id, ok: true, judged }),
    (error: unknown) => parentPort?.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
