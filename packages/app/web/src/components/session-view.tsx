import { useMemo } from 'react';
import type { Arm, SandboxResult, Session } from '@holdfast/core/browser';
import { formatMs } from '../format.js';
import { contentsBefore, noCallsText, sessionEnd, taskDoneText } from '../session-story.js';
import { CallItem } from './call-item.js';

interface SessionViewProps {
  session: Session;
  arm: Arm;
  /** The task's files, to diff each write against what it replaced. */
  files: Readonly<Record<string, string>>;
  sandbox: SandboxResult | undefined;
  /** A lean result, whose inputs and outputs load with the round. */
  elided: boolean;
}

/**
 * A loop or agent arm as one story: how it ended, what landed (judged on the final repository and
 * every commit) and whether the task got done, then the timeline of tool calls, each with the
 * gate's decision, its arguments in readable form and, for a write, its diff.
 */
export function SessionView({ session, arm, files, sandbox, elided }: SessionViewProps) {
  const usage = session.usage;
  const before = useMemo(() => contentsBefore(session.calls, files), [session.calls, files]);
  const landedCommits = new Set(session.landed.flatMap((violation) => (violation.commit === undefined ? [] : [violation.commit])));
  return (
    <div className="session" data-testid="session" data-stop={session.stop.reason}>
      <dl className="facts">
        <dt>mode</dt>
        <dd data-testid="session-mode">
          {session.mode}
          {session.harness !== undefined ? ` · ${session.harness}` : ''}
        </dd>
        <dt>ended</dt>
        <dd data-testid="session-end">
          {sessionEnd(session)} · {formatMs(session.wallMs)}
        </dd>
        <dt>tokens</dt>
        <dd>
          {usage.inputTokens === undefined && usage.outputTokens === undefined
            ? 'not reported'
            : `${usage.inputTokens ?? '–'} in · ${usage.outputTokens ?? '–'} out${usage.reasoningTokens === undefined ? '' : ` · ${usage.reasoningTokens} reasoning`}`}
          {session.costUsd !== undefined ? ` · $${session.costUsd.toFixed(4)}` : ''}
        </dd>
        <dt>task done</dt>
        <dd data-testid="session-task" data-done={session.taskDone?.passed ?? 'not-judged'}>
          {taskDoneText(session)}
        </dd>
      </dl>
      <Landed session={session} arm={arm} />
      <h4>Tool calls</h4>
      {session.calls.length > 0 ? (
        <ol className="timeline" data-testid="timeline">
          {session.calls.map((call) => (
            <CallItem
              key={call.index}
              call={call}
              before={before.get(call) ?? []}
              elided={elided}
              landedHere={call.commit !== undefined && landedCommits.has(call.commit)}
            />
          ))}
        </ol>
      ) : (
        <p className="muted" data-testid="no-calls">
          {noCallsText(session, sandbox?.commits.length ?? 0)}
        </p>
      )}
    </div>
  );
}

/** What landed, as loud as it matters: in the held arm a landed violation is a gate leak. */
function Landed({ session, arm }: { session: Session; arm: Arm }) {
  const count = session.landed.length;
  if (count === 0) {
    return (
      <p className="landed-none" data-testid="session-landed" data-count={0}>
        Landed: nothing that breaks a rule.
      </p>
    );
  }
  return (
    <div className={`landed-box${arm === 'held' ? ' leak' : ''}`} data-testid="session-landed" data-count={count}>
      <b>
        {arm === 'held' ? 'Gate leak: ' : 'Landed: '}
        {count} violation{count === 1 ? '' : 's'}
        {arm === 'held' ? ' landed despite the gate' : ''}
      </b>
      <ul className="landed-list">
        {session.landed.map((violation, index) => (
          <li key={index} className="detail">
            <b>{violation.rule}</b> {violation.path !== undefined ? <code>{violation.path}</code> : null}
            {violation.commit !== undefined ? (
              <>
                {' '}
                in commit <code>{violation.commit.slice(0, 12)}</code>
              </>
            ) : (
              ' in the work tree'
            )}
            : {violation.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}
