import { Redis } from 'ioredis';
import { z } from 'zod';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../experiment/index.js';
import { QUEUE_PREFIX } from './round-queues.js';
import type { QueueConnection } from './queue-url.js';
import { redisOptions } from './queue-url.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/**
 * The human commit gate across machines. A worker's held arm asks through the round's live events
 * (the approval request reaches the coordinator's run file, CLI and approvers like any other); the
 * coordinator publishes the person's answer on one Redis channel and the waiting worker takes it.
 * The worker's own deadline (the runner's `decideWithDeadline`) still refuses an unanswered commit
 * at the run's approval timeout: a lost coordinator or a lost message fails closed.
 */
export const APPROVAL_CHANNEL = `${QUEUE_PREFIX}.approvals`;

const AnswerSchema = z.object({
  approvalId: z.string(),
  decision: z.enum(['approved', 'refused']),
  by: z.enum(['person', 'timeout', 'auto', 'cancel', 'no-answer']),
});

export interface ApprovalRelay extends Approver {
  /** Requests waiting for an answer from the coordinator. */
  waiting(): readonly string[];
  close(): Promise<void>;
}

/** A worker's approver: waits for the coordinator's answer to each request it raised. */
export async function openApprovalRelay(connection: QueueConnection): Promise<ApprovalRelay> {
  const subscriber = new Redis({ ...redisOptions(connection), lazyConnect: true });
  await subscriber.connect();
  await subscriber.subscribe(APPROVAL_CHANNEL);
  const waiting = new Map<string, (decision: ApprovalDecision) => void>();
  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== APPROVAL_CHANNEL) return;
    const answer = AnswerSchema.safeParse(jsonOrUndefined(text));
    if (!answer.success) return;
    waiting.get(answer.data.approvalId)?.({ decision: answer.data.decision, by: answer.data.by });
  });
  return {
    decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      return new Promise((resolve) => {
        const finish = (decision: ApprovalDecision) => {
          waiting.delete(request.approvalId);
          resolve(decision);
        };
        waiting.set(request.approvalId, finish);
        signal.addEventListener('abort', () => finish({ decision: 'refused', by: 'cancel' }), { once: true });
      });
    },
    waiting: () => [...waiting.keys()],
    async close() {
      for (const finish of waiting.values()) finish({ decision: 'refused', by: 'cancel' });
      subscriber.disconnect();
    },
  };
}

/** The coordinator's side: hands one decision to whichever worker is waiting for it. */
export async function publishApproval(publisher: Pick<Redis, 'publish'>, approvalId: string, decision: ApprovalDecision): Promise<void> {
  await publisher.publish(APPROVAL_CHANNEL, JSON.stringify({ approvalId, ...decision }));
}
