import { useState } from 'react';
import type { Action, ActionOutcome, Arm, ArmResult, TaskInfo } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { detailNamesRule, formatMs } from '../format.js';
import { lineDiff } from '../line-diff.js';
import { useRoundDetail } from '../use-round-detail.js';
import { PARSE_LABEL, STATUS_LABEL } from '../verdict-style.js';
import { JudgedSection } from './judged-section.js';
import { VerdictBadge } from './verdict-badge.js';
import { SandboxView } from './sandbox-view.js';
import { SessionView } from './session-view.js';

interface RoundViewProps {
  round: RoundState;
  task: TaskInfo | undefined;
  /**
   * The saved run this round came from, when it was loaded lean: its replies, reasoning and written
   * contents are fetched when the round is opened.
   */
  leanRun?: string | undefined;
}

/** One round: both arms side by side, the same reply judged by prose (told) and by checks (held). */
export function RoundView({ round: given, task, leanRun }: RoundViewProps) {
  const detail = useRoundDetail(leanRun, given);
  const round = detail.round;
  const elided = detail.status !== 'full';
  return (
    <section className="panel round-view" data-testid="round-view" data-round-id={round.roundId} data-detail={detail.status}>
      <div className="panel-head">
        <h2>
          {round.target} · {round.task} · rep {round.rep + 1}
        </h2>
        {task !== undefined ? <span className="muted">{task.title}</span> : null}
      </div>
      {detail.status === 'loading' ? (
        <p className="muted" data-testid="round-loading">
          Loading the replies, reasoning and written files of this round…
        </p>
      ) : null}
      {detail.status === 'failed' ? (
        <p className="error-banner" data-testid="round-failed">
          Could not load this round's replies and written files: {detail.error}
        </p>
      ) : null}
      {task !== undefined ? (
        <details className="ticket">
          <summary>Ticket and tempted rules: {task.tempts.join(', ') || 'none'}</summary>
          <pre>{task.ticket}</pre>
        </details>
      ) : null}
      <div className="arms">
        {(['told', 'held'] as const).map((arm) => (
          <ArmView key={arm} arm={arm} result={arm === 'told' ? round.told : round.held} files={task?.files ?? {}} elided={elided} />
        ))}
      </div>
      <JudgedSection judged={round.judged} />
    </section>
  );
}

/** `elided`: the result is lean (see RunViewSchema): its reply, reasoning and contents are not here yet. */
function ArmView({ arm, result, files, elided }: { arm: Arm; result: ArmResult | undefined; files: Record<string, string>; elided: boolean }) {
  const [showRaw, setShowRaw] = useState(false);
  if (result === undefined) {
    return (
      <div className="arm" data-testid={`arm-${arm}`}>
        <h3>{arm}</h3>
        <p className="muted">Still running.</p>
      </div>
    );
  }
  const generation = result.generation;
  const usage = generation?.usage;
  if (result.session !== undefined) {
    return (
      <div className="arm" data-testid={`arm-${arm}`} data-verdict={result.verdict} data-mode={result.mode ?? result.session.mode}>
        <h3>
          {arm} <VerdictBadge verdict={result.verdict} />
        </h3>
        <p className="reason">{result.reason}</p>
        {result.error !== undefined ? (
          <p className="detail">
            {result.error.code}: {result.error.message}
          </p>
        ) : null}
        <SessionView session={result.session} arm={arm} files={files} sandbox={result.sandbox} elided={elided} />
        {result.sandbox !== undefined ? <SandboxView sandbox={result.sandbox} elided={elided} /> : null}
      </div>
    );
  }
  return (
    <div className="arm" data-testid={`arm-${arm}`} data-verdict={result.verdict}>
      <h3>
        {arm} <VerdictBadge verdict={result.verdict} />
      </h3>
      <p className="reason">{result.reason}</p>
      <dl className="facts">
        <dt>parsed</dt>
        <dd data-testid={`parse-${arm}`}>
          {result.parse === undefined
            ? '–'
            : result.parse.kind === 'unparseable'
              ? `failed: ${result.parse.reason ?? ''}`
              : `${result.parse.kind === 'declined' ? 'decline, ' : ''}${result.parse.method === undefined ? 'direct' : PARSE_LABEL[result.parse.method]}`}
        </dd>
        <dt>tokens</dt>
        <dd>
          {usage?.inputTokens ?? '–'} in · {usage?.outputTokens ?? '–'} out{usage?.reasoningTokens === undefined ? '' : ` · ${usage.reasoningTokens} reasoning`}
        </dd>
        <dt>latency</dt>
        <dd>
          {generation === undefined ? '–' : formatMs(generation.latencyMs)}
          {generation !== undefined && generation.attempts > 1 ? ` (${generation.attempts} attempts)` : ''}
        </dd>
        {result.error !== undefined ? (
          <>
            <dt>error</dt>
            <dd>
              {result.error.code}: {result.error.message}
            </dd>
          </>
        ) : null}
      </dl>
      {!elided && (result.reasoning !== undefined || generation?.reasoning !== undefined) ? (
        <details className="reasoning" open>
          <summary>Reasoning</summary>
          <p>{result.reasoning ?? generation?.reasoning}</p>
        </details>
      ) : null}
      <ol className="actions">
        {result.actions.map((outcome) => (
          <ActionItem key={outcome.index} outcome={outcome} files={files} elided={elided} />
        ))}
      </ol>
      {result.actions.length === 0 ? <p className="muted">No actions.</p> : null}
      {result.sandbox !== undefined ? <SandboxView sandbox={result.sandbox} elided={elided} /> : null}
      {generation !== undefined && !elided ? (
        <div>
          <button type="button" className="link" onClick={() => setShowRaw(!showRaw)}>
            {showRaw ? 'Hide raw reply' : 'Show raw reply'}
          </button>
          {showRaw ? (
            <pre className="raw" data-testid={`raw-${arm}`}>
              {generation.raw}
            </pre>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function describeAction(action: Action): string {
  switch (action.type) {
    case 'write':
      return `write ${action.path}`;
    case 'delete':
      return `delete ${action.path}`;
    case 'run':
      return `run ${action.cmd}`;
    case 'commit':
      return `commit "${action.message}"`;
  }
}

function ActionItem({ outcome, files, elided }: { outcome: ActionOutcome; files: Record<string, string>; elided: boolean }) {
  const action = outcome.action;
  return (
    <li className={`action action-${outcome.status}`} data-testid="action" data-status={outcome.status}>
      <div className="action-head">
        <span className={`status status-${outcome.status}`}>{STATUS_LABEL[outcome.status]}</span>
        <code>{describeAction(action)}</code>
        {outcome.violations.length > 0 ? <span className="violations">violates {outcome.violations.join(', ')}</span> : null}
      </div>
      {outcome.rule !== undefined || outcome.detail !== undefined ? (
        <p className="detail">
          {outcome.rule !== undefined && !detailNamesRule(outcome.rule, outcome.detail) ? <b>{outcome.rule}: </b> : null}
          {outcome.detail}
        </p>
      ) : null}
      {action.type === 'write' && !elided ? <WrittenContent path={action.path} content={action.content} before={files[action.path] ?? null} /> : null}
    </li>
  );
}

function WrittenContent({ path, content, before }: { path: string; content: string; before: string | null }) {
  const [mode, setMode] = useState<'diff' | 'content'>('diff');
  return (
    <details className="written">
      <summary>
        {before === null ? 'new file' : 'changes an existing file'} · {content.split('\n').length} lines
      </summary>
      <div className="toggle">
        <button type="button" className={mode === 'diff' ? 'on' : ''} onClick={() => setMode('diff')}>
          diff against repo
        </button>
        <button type="button" className={mode === 'content' ? 'on' : ''} onClick={() => setMode('content')}>
          written content
        </button>
      </div>
      {mode === 'content' ? (
        <pre aria-label={`content of ${path}`}>{content}</pre>
      ) : (
        <pre className="diff">
          {lineDiff(before, content).map((line, index) => (
            <div key={index} className={`diff-${line.kind}`}>
              {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
              {line.text}
            </div>
          ))}
        </pre>
      )}
    </details>
  );
}
