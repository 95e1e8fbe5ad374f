import type { Action, ToolCallRecord, ToolDecision } from '@holdfast/core/browser';
import { detailNamesRule } from '../format.js';
import { lineDiff } from '../line-diff.js';
import type { DiffLine } from '../line-diff.js';
import { hasContent, readableArguments } from '../session-story.js';

const DECISION_LABEL: Readonly<Record<ToolDecision, string>> = {
  applied: 'applied',
  blocked: 'blocked',
  observed: 'observed',
  reverted: 'put back',
  'allowed-by-person': 'allowed by a person',
  warned: 'warned (rule at warn)',
};

/** A call's status class: the same colours as an action's (applied green, blocked amber, warned yellow). */
const DECISION_CLASS: Readonly<Record<ToolDecision, string>> = {
  applied: 'applied',
  blocked: 'blocked',
  observed: 'applied',
  reverted: 'blocked',
  'allowed-by-person': 'refused',
  warned: 'warned',
};

interface CallItemProps {
  call: ToolCallRecord;
  /** Per action of the call, the file it replaced (null: a new file). */
  before: readonly (string | null)[];
  elided: boolean;
  /** The call made a commit that holds a landed violation. */
  landedHere: boolean;
}

/** One tool call: what the gate decided, what it was asked to do in readable form, the failed checks, and the answer. */
export function CallItem({ call, before, elided, landedHere }: CallItemProps) {
  const failed = call.checks.filter((check) => !check.ok);
  const status = DECISION_CLASS[call.decision];
  return (
    <li className={`call action-${status}${landedHere ? ' landed' : ''}`} data-testid="call" data-decision={call.decision} data-tool={call.tool}>
      <div className="action-head">
        <span className="call-turn">{call.turn}</span>
        <span className={`status status-${status}`}>{DECISION_LABEL[call.decision]}</span>
        <code className="call-tool">{call.tool}</code>
        {failed.length > 0 ? <span className="violations">breaks {[...new Set(failed.map((check) => check.rule))].join(', ')}</span> : null}
        {landedHere ? <span className="violations">landed</span> : null}
      </div>
      {call.actions.length > 0 ? (
        <ul className="call-actions">
          {call.actions.map((action, index) => (
            <ActionLine key={index} action={action} before={before[index] ?? null} elided={elided} />
          ))}
        </ul>
      ) : elided ? null : (
        <CallArguments text={call.input.text} />
      )}
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

/** A tool's arguments when holdfast read no action from it (a read, a search): name and value, long values as blocks. */
function CallArguments({ text }: { text: string }) {
  const args = readableArguments(text);
  if (args.length === 0) return null;
  return (
    <dl className="call-arguments" data-testid="call-arguments">
      {args.map((arg) => (
        <div key={arg.name} className="call-argument">
          <dt>{arg.name}</dt>
          <dd>{arg.block ? <pre>{arg.value}</pre> : <code>{arg.value}</code>}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One action a call would make: the path with a diff for a write, the command, the commit message. */
function ActionLine({ action, before, elided }: { action: Action; before: string | null; elided: boolean }) {
  switch (action.type) {
    case 'run':
      return (
        <li className="call-action" data-testid="call-action" data-type="run">
          <span className="muted">run</span> <code className="call-command">$ {action.cmd}</code>
        </li>
      );
    case 'commit':
      return (
        <li className="call-action" data-testid="call-action" data-type="commit">
          <span className="muted">commit</span> <q>{action.message}</q>
        </li>
      );
    case 'delete':
      return (
        <li className="call-action" data-testid="call-action" data-type="delete">
          <span className="muted">delete</span> <code className="call-path">{action.path}</code>
        </li>
      );
    case 'write':
      return (
        <li className="call-action" data-testid="call-action" data-type="write">
          <span className="muted">{before === null ? 'create' : 'edit'}</span> <code className="call-path">{action.path}</code>
          {!elided && hasContent(action) ? <WriteDiff before={before} after={action.content} /> : null}
        </li>
      );
  }
}

const CONTEXT = 2;

/** The changed lines with two lines of context each side; `undefined` stands for the unchanged lines left out. */
function aroundChanges(lines: readonly DiffLine[]): (DiffLine | undefined)[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let at = Math.max(0, index - CONTEXT); at <= Math.min(lines.length - 1, index + CONTEXT); at++) keep[at] = true;
  });
  const shown: (DiffLine | undefined)[] = [];
  lines.forEach((line, index) => {
    if (keep[index]) shown.push(line);
    else if (shown.at(-1) !== undefined || shown.length === 0) shown.push(undefined);
  });
  return shown;
}

function WriteDiff({ before, after }: { before: string | null; after: string }) {
  const lines = lineDiff(before, after);
  const added = lines.filter((line) => line.kind === 'added').length;
  const removed = lines.filter((line) => line.kind === 'removed').length;
  return (
    <details className="written" data-testid="call-diff">
      <summary>
        +{added} −{removed} lines
      </summary>
      <pre className="diff">
        {aroundChanges(lines).map((line, index) =>
          line === undefined ? (
            <div key={index} className="diff-hunk">
              …
            </div>
          ) : (
            <div key={index} className={`diff-${line.kind}`}>
              {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
              {line.text}
            </div>
          ),
        )}
      </pre>
    </details>
  );
}
