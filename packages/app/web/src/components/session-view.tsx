import type { Session, ToolCallRecord, ToolDecision } from '@holdfast/core/browser';
import { detailNamesRule, formatMs } from '../format.js';

const DECISION_LABEL: Readonly<Record<ToolDecision, string>> = {
  applied: 'applied',
  blocked: 'blocked',
  observed: 'observed',
  reverted: 'put back',
  'allowed-by-person': 'allowed by a person',
};

/** A call's status class: the same colours as an action's (applied green, blocked amber). */
const DECISION_CLASS: Readonly<Record<ToolDecision, string>> = {
  applied: 'applied',
  blocked: 'blocked',
  observed: 'applied',
  reverted: 'blocked',
  'allowed-by-person': 'refused',
};

/**
 * A loop or agent arm: how the session ended, what landed (judged on the final repository), whether
 * the task got done, and the tool-call timeline with each call's failed checks and what the gate did.
 * `elided`: a lean result, whose inputs and outputs load with the round.
 */
export function SessionView({ session, elided }: { session: Session; elided: boolean }) {
  const usage = session.usage;
  return (
    <div className="session" data-testid="session" data-stop={session.stop.reason}>
      <dl className="facts">
        <dt>mode</dt>
        <dd data-testid="session-mode">
          {session.mode}
          {session.harness !== undefined ? ` · ${session.harness}` : ''}
        </dd>
        <dt>ended</dt>
        <dd>
          {session.stop.reason}
          {session.stop.detail !== undefined ? ` (${session.stop.detail})` : ''} after {session.turns} turn{session.turns === 1 ? '' : 's'} ·{' '}
          {formatMs(session.wallMs)}
        </dd>
        <dt>tokens</dt>
        <dd>
          {usage.inputTokens ?? '–'} in · {usage.outputTokens ?? '–'} out{usage.reasoningTokens === undefined ? '' : ` · ${usage.reasoningTokens} reasoning`}
          {session.costUsd !== undefined ? ` · $${session.costUsd.toFixed(4)}` : ''}
        </dd>
        <dt>task done</dt>
        <dd data-testid="session-task">
          {session.taskDone === undefined
            ? 'not checked'
            : `${session.taskDone.passed ? 'yes' : 'no'}: ${session.taskDone.command} ${session.taskDone.detail ?? ''}`}
        </dd>
        <dt>landed</dt>
        <dd data-testid="session-landed" data-count={session.landed.length}>
          {session.landed.length === 0 ? 'nothing that breaks a rule' : `${session.landed.length} violation${session.landed.length === 1 ? '' : 's'}`}
        </dd>
      </dl>
      {session.landed.length > 0 ? (
        <ul className="landed-list">
          {session.landed.map((violation, index) => (
            <li key={index} className="detail">
              <b>{violation.rule}</b> {violation.path !== undefined ? <code>{violation.path}</code> : null}
              {violation.commit !== undefined ? (
                <>
                  {' '}
                  in <code>{violation.commit.slice(0, 12)}</code>
                </>
              ) : (
                ' in the work tree'
              )}
              : {violation.detail}
            </li>
          ))}
        </ul>
      ) : null}
      <ol className="actions timeline" data-testid="timeline">
        {session.calls.map((call) => (
          <CallItem key={call.index} call={call} elided={elided} />
        ))}
      </ol>
      {session.calls.length === 0 ? <p className="muted">No tool calls.</p> : null}
    </div>
  );
}

function CallItem({ call, elided }: { call: ToolCallRecord; elided: boolean }) {
  const failed = call.checks.filter((check) => !check.ok);
  return (
    <li className={`action action-${DECISION_CLASS[call.decision]}`} data-testid="call" data-decision={call.decision} data-tool={call.tool}>
      <div className="action-head">
        <span className={`status status-${DECISION_CLASS[call.decision]}`}>{DECISION_LABEL[call.decision]}</span>
        <code>
          {call.turn}. {call.tool}
        </code>
        {!elided ? <span className="muted call-input">{call.input.text.length > 120 ? `${call.input.text.slice(0, 120)}…` : call.input.text}</span> : null}
        {failed.length > 0 ? <span className="violations">violates {[...new Set(failed.map((check) => check.rule))].join(', ')}</span> : null}
      </div>
      {failed.map((check, index) => (
        <p key={index} className="detail" data-testid="call-check">
          {detailNamesRule(check.rule, check.detail) ? null : <b>{check.rule}: </b>}
          {check.detail}
        </p>
      ))}
      {call.decision === 'reverted' && call.detail !== undefined ? <p className="detail">{call.detail}</p> : null}
      {!elided && call.output !== undefined && call.output.text !== '' ? (
        <details className="written">
          <summary>
            {call.isError ? 'answered with an error' : 'answer'}
            {call.exitCode !== undefined ? ` · exit ${call.exitCode}` : ''}
            {call.commit !== undefined ? ` · ${call.commit.slice(0, 12)}` : ''}
          </summary>
          <pre>{call.output.text}</pre>
        </details>
      ) : null}
    </li>
  );
}
