import type { Rulebook } from '@holdfast/core/contract';
import { boundNativeMemory, RUN_COLLECT_EVERY } from '@holdfast/core/rules';
import { serveRequests } from '../../thread-pool/index.js';
import type { JudgedReply } from './judge-reply.js';
import { judgeReplyHere } from './judge-reply.js';

/** One reply for a judge worker to read and check. */
export interface JudgeRequest {
  readonly raw: string;
  readonly existing: readonly string[];
  readonly rulebook: Rulebook;
  readonly existingContent?: Readonly<Record<string, string>>;
}

// The entry of a judge worker thread (see judge-pool.ts). A worker is a long reader like the runner
// itself: the syntax trees its checks parse are its own native memory, bounded the same way.
serveRequests<JudgeRequest, JudgedReply>(async (request) => {
  const judged = await judgeReplyHere(request.raw, request.existing, request.rulebook, request.existingContent);
  await boundNativeMemory(RUN_COLLECT_EVERY);
  return judged;
});
