import { useState } from 'react';
import type { ApprovalState } from '@holdfast/lab/browser';
import { formatCountdown } from '../format.js';
import { useNow } from '../use-now.js';

interface ApprovalsPanelProps {
  pending: readonly ApprovalState[];
  finished: readonly ApprovalState[];
  /** Absent when this page cannot answer (a saved run, or a stream without the run's token). */
  answer: ((approvalId: string, approve: boolean) => Promise<void>) | undefined;
  /** Why nothing can be answered here, shown when `answer` is absent. */
  readOnly: string;
  onOpenRound: (roundId: string) => void;
}

/** The commit gate: each pending commit with what it would land, and a countdown to automatic refusal. */
export function ApprovalsPanel({ pending, finished, answer, readOnly, onOpenRound }: ApprovalsPanelProps) {
  const now = useNow(pending.length > 0);
  const recent = finished.slice(-5).reverse();
  if (pending.length === 0 && recent.length === 0) return null;
  return (
    <section className="panel approvals" data-testid="approvals" aria-label="Approvals">
      <div className="panel-head">
        <h2>Commit approvals</h2>
        <span className="muted">{pending.length} waiting</span>
      </div>
      {pending.map((approval) => (
        <PendingApproval key={approval.approvalId} approval={approval} now={now} answer={answer} readOnly={readOnly} />
      ))}
      {recent.length > 0 ? (
        <ul className="finished-approvals">
          {recent.map((approval) => (
            <li
              key={approval.approvalId}
              data-testid="approval-finished"
              data-approval-id={approval.approvalId}
              data-round-id={approval.roundId}
              data-decision={approval.end?.decision}
              data-by={approval.end?.by}
            >
              <span className={`decision decision-${approval.end?.decision ?? 'unknown'}`}>{approval.end?.decision ?? '?'}</span> by{' '}
              {approval.end?.by === 'no-answer' ? 'no answer (the input had ended)' : (approval.end?.by ?? '?')} ·{' '}
              <button type="button" className="link" onClick={() => onOpenRound(approval.roundId)}>
                {approval.target} · {approval.task} · rep {approval.rep + 1}
              </button>
              {approval.request !== undefined ? <span className="muted"> · "{approval.request.message}"</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function PendingApproval({
  approval,
  now,
  answer,
  readOnly,
}: {
  approval: ApprovalState;
  now: number;
  answer: ApprovalsPanelProps['answer'];
  readOnly: string;
}) {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const request = approval.request;
  const remaining = request === undefined ? 0 : Date.parse(request.deadline) - now;
  const send = (approve: boolean) => {
    if (answer === undefined) return;
    setSending(true);
    setError(undefined);
    answer(approval.approvalId, approve).then(
      () => undefined,
      (failure: unknown) => {
        setSending(false);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  return (
    <article className="approval" data-testid="approval-pending" data-approval-id={approval.approvalId} data-round-id={approval.roundId}>
      <div className="approval-head">
        <b>
          {approval.target} · {approval.task} · rep {approval.rep + 1} · {request?.arm ?? ''} arm
        </b>
        <span className={`countdown${remaining < 10_000 ? ' urgent' : ''}`} data-testid="countdown" title="unanswered commits are refused when this reaches 0">
          refused in {formatCountdown(remaining)}
        </span>
      </div>
      <p className="commit-message">
        commit <code>{request?.message}</code>
      </p>
      <ul className="approval-files">
        {(request?.files ?? []).map((file) => (
          <li key={file.path}>
            <details>
              <summary>
                <code>{file.path}</code>{' '}
                {file.content === null ? <span className="muted">deleted</span> : <span className="muted">{file.content.split('\n').length} lines</span>}
              </summary>
              {file.content !== null ? <pre>{file.content}</pre> : null}
            </details>
          </li>
        ))}
      </ul>
      <div className="approval-buttons">
        <button type="button" className="approve" disabled={answer === undefined || sending} onClick={() => send(true)}>
          Approve commit
        </button>
        <button type="button" className="refuse" disabled={answer === undefined || sending} onClick={() => send(false)}>
          Refuse
        </button>
        {answer === undefined ? <span className="muted">Read only: {readOnly}</span> : null}
        {error !== undefined ? <span className="error">{error}</span> : null}
      </div>
    </article>
  );
}
