import { realTimers } from '@holdfast/core/contract';
import type { Timers } from '@holdfast/core/contract';

/**
 * The commit gate of the held arm. A person (or a policy) answers each request; no answer before
 * the deadline is a refusal, because an approval that times out must fail closed.
 */
export interface ApprovalRequest {
  readonly approvalId: string;
  readonly roundId: string;
  readonly target: string;
  readonly task: string;
  readonly rep: number;
  readonly message: string;
  readonly files: readonly { path: string; content: string | null }[];
  readonly deadline: Date;
}

export type ApprovalDecision = { decision: 'approved' | 'refused'; by: 'person' | 'timeout' | 'auto' | 'cancel' | 'no-answer' };

export interface Approver {
  /** Resolves with the decision; never rejects. `signal` aborts the wait (the run was cancelled). */
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** For scripts: approve or refuse every commit without asking. */
export function policyApprover(decision: 'approved' | 'refused'): Approver {
  return { decide: async () => ({ decision, by: 'auto' }) };
}

/**
 * Races an approver against its deadline. A timeout or a cancelled run is a refusal.
 * The deadline runs on `timers` (the real ones by default; fake timers drive those in tests).
 * `signal` is the run's, shared by every approval of the run: what this one adds to it is taken off
 * once it is decided, or each commit of a long run would stay reachable (its request, its timer)
 * until the run ends.
 */
export async function decideWithDeadline(
  approver: Approver,
  request: ApprovalRequest,
  timeoutMs: number,
  signal: AbortSignal,
  timers: Timers = realTimers,
): Promise<ApprovalDecision> {
  const local = new AbortController();
  let onAbort = (): void => undefined;
  const cancelled = new Promise<ApprovalDecision>((resolve) => {
    onAbort = () => {
      local.abort();
      resolve({ decision: 'refused', by: 'cancel' });
    };
    if (signal.aborted) resolve({ decision: 'refused', by: 'cancel' });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let timer: unknown;
  const timeout = new Promise<ApprovalDecision>((resolve) => {
    timer = timers.setTimeout(() => {
      local.abort();
      resolve({ decision: 'refused', by: 'timeout' });
    }, timeoutMs);
  });
  const answered = approver.decide(request, local.signal).catch((): ApprovalDecision => ({ decision: 'refused', by: 'auto' }));
  try {
    return await Promise.race([answered, timeout, cancelled]);
  } finally {
    timers.clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    local.abort();
  }
}

/**
 * Pending approvals answered from outside (a terminal prompt, the web app's HTTP endpoint).
 * `answer` returns false when the id is unknown or already decided.
 */
export class PendingApprovals implements Approver {
  private readonly waiting = new Map<string, { request: ApprovalRequest; resolve: (decision: ApprovalDecision) => void }>();

  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      const finish = (decision: ApprovalDecision) => {
        this.waiting.delete(request.approvalId);
        resolve(decision);
      };
      this.waiting.set(request.approvalId, { request, resolve: finish });
      signal.addEventListener('abort', () => finish({ decision: 'refused', by: 'cancel' }), { once: true });
    });
  }

  answer(approvalId: string, approve: boolean): boolean {
    const entry = this.waiting.get(approvalId);
    if (entry === undefined) return false;
    entry.resolve({ decision: approve ? 'approved' : 'refused', by: 'person' });
    return true;
  }

  pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((entry) => entry.request);
  }
}
