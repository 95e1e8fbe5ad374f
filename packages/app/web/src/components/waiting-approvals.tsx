import { useEffect, useRef, useState } from 'react';
import type { LiveApproval, LiveRunSummary } from '@holdfast/core/browser';
import { formatCountdown } from '../format.js';
import { hashOfSource } from '../run-source.js';
import { useNow } from '../use-now.js';

interface WaitingApproval extends LiveApproval {
  readonly runId: string;
}

function waitingOf(runs: readonly LiveRunSummary[]): WaitingApproval[] {
  return runs.flatMap((run) => run.pending.map((approval) => ({ ...approval, runId: run.runId })));
}

function describe(approval: WaitingApproval): string {
  return `${approval.target} · ${approval.task} · rep ${approval.rep + 1} (${approval.runId})`;
}

const BASE_TITLE = 'holdfast';

/**
 * The header's count of commits waiting for a person in any run of this server, on every page:
 * the count is in the document title too, a new one is announced in a live region and, once the
 * person allowed it, as a browser notification. Each entry opens its run, whose page can answer.
 */
export function WaitingApprovals({ runs }: { runs: readonly LiveRunSummary[] }) {
  const waiting = waitingOf(runs);
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [permission, setPermission] = useState(() => (typeof Notification === 'undefined' ? 'denied' : Notification.permission));
  const seen = useRef(new Set<string>());

  useEffect(() => {
    document.title = waiting.length > 0 ? `(${waiting.length}) ${BASE_TITLE} · commit waiting` : BASE_TITLE;
  }, [waiting.length]);

  useEffect(() => {
    const fresh = waiting.filter((approval) => !seen.current.has(approval.approvalId));
    for (const approval of fresh) seen.current.add(approval.approvalId);
    if (fresh.length === 0) return;
    setAnnouncement(`${fresh.length === 1 ? 'A commit is' : `${fresh.length} commits are`} waiting for approval: ${fresh.map(describe).join('; ')}`);
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      for (const approval of fresh) {
        const notification = new Notification('holdfast: commit waiting', { body: `${describe(approval)}\n${approval.message}`, tag: approval.approvalId });
        notification.onclick = () => {
          window.focus();
          window.location.hash = hashOfSource({ kind: 'live', runId: approval.runId });
        };
      }
    }
  }, [waiting]);

  return (
    <div className="waiting" data-testid="waiting-approvals" data-count={waiting.length}>
      {waiting.length > 0 ? <WaitingNotice waiting={waiting} /> : null}
      <button
        type="button"
        className={waiting.length > 0 ? 'waiting-count alert' : 'waiting-count'}
        aria-expanded={open}
        aria-controls="waiting-list"
        onClick={() => setOpen((value) => !value)}
      >
        {waiting.length} commit{waiting.length === 1 ? '' : 's'} waiting
      </button>
      {permission === 'default' ? (
        <button type="button" className="link" data-testid="allow-notifications" onClick={() => void Notification.requestPermission().then(setPermission)}>
          notify me
        </button>
      ) : null}
      {open ? (
        <ul id="waiting-list" className="waiting-list" data-testid="waiting-list">
          {waiting.length === 0 ? <li className="muted">No commit is waiting.</li> : null}
          {waiting.map((approval) => (
            <li key={approval.approvalId}>
              <a
                href={hashOfSource({ kind: 'live', runId: approval.runId })}
                data-testid="waiting-approval"
                data-approval-id={approval.approvalId}
                onClick={() => setOpen(false)}
              >
                {describe(approval)}: <code>{approval.message}</code>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="sr-only" role="status" aria-live="polite" data-testid="approval-announcement">
        {announcement}
      </p>
    </div>
  );
}

/** Brings the run's commit approvals into view: on its page now, or after its page has drawn them. */
function scrollToApprovals(runId: string): void {
  const target = hashOfSource({ kind: 'live', runId });
  const reveal = (tries: number) => {
    const panel = document.querySelector('[data-testid="approvals"]');
    if (panel !== null && window.location.hash === target) panel.scrollIntoView({ block: 'start' });
    else if (tries > 0) requestAnimationFrame(() => reveal(tries - 1));
  };
  if (window.location.hash !== target) window.location.hash = target;
  reveal(600);
}

/**
 * A notice fixed to the bottom of the viewport, at every width, while a commit waits for a person: how many, and
 * the countdown to the first automatic refusal; it takes the person to the approvals.
 */
function WaitingNotice({ waiting }: { waiting: readonly WaitingApproval[] }) {
  const now = useNow(true);
  const first = waiting.reduce((soonest, approval) => (Date.parse(approval.deadline) < Date.parse(soonest.deadline) ? approval : soonest));
  const remaining = Date.parse(first.deadline) - now;
  return (
    <button
      type="button"
      className={`waiting-notice${remaining < 10_000 ? ' urgent' : ''}`}
      data-testid="waiting-notice"
      data-count={waiting.length}
      onClick={() => scrollToApprovals(first.runId)}
    >
      <b>
        Approval needed: {waiting.length} commit{waiting.length === 1 ? '' : 's'}
      </b>{' '}
      · the first is refused in <span data-testid="waiting-notice-countdown">{formatCountdown(remaining)}</span> · show
    </button>
  );
}
