import type { ActionOutcome, ArmResult, Judgement, ToolCallRecord } from '@holdfast/core/contract';

/** What the judge reads of an arm, as text, and which kind of record it came from. */
export interface JudgeMaterial {
  readonly kind: Judgement['material'];
  readonly text: string;
}

/** Enough for a long diff; a judge prompt past this is cut, and says so. */
export const MAX_MATERIAL_CHARS = 60_000;
const MAX_CALL_INPUT_CHARS = 600;

/**
 * What the arm did, for the judge: a plan arm's actions with numbered file contents (so evidence
 * can name a line), or a session's final diff and tool-call timeline. The judge never sees the
 * arm's deterministic verdict: its grade must not lean on the checks it is kept apart from.
 */
export function judgeMaterial(arm: ArmResult): JudgeMaterial {
  if (arm.session !== undefined) return { kind: 'diff-and-timeline', text: cap(sessionText(arm)) };
  return { kind: 'actions', text: cap(actionsText(arm)) };
}

function actionsText(arm: ArmResult): string {
  const parts: string[] = [];
  if (arm.reasoning !== undefined && arm.reasoning.trim() !== '') parts.push(`The agent's reply text:\n${arm.reasoning.trim()}`);
  if (arm.actions.length === 0) parts.push(`The agent took no action (${arm.parse?.kind ?? 'no reply'}).`);
  for (const outcome of arm.actions) parts.push(actionText(outcome));
  return parts.join('\n\n');
}

function actionText(outcome: ActionOutcome): string {
  const action = outcome.action;
  const status = outcome.status === 'applied' || outcome.status === 'warned' ? '' : ` (${outcome.status}, it did not take effect)`;
  switch (action.type) {
    case 'write':
      return `Action ${outcome.index}: write ${action.path}${status}\n${numbered(action.content)}`;
    case 'delete':
      return `Action ${outcome.index}: delete ${action.path}${status}`;
    case 'run':
      return `Action ${outcome.index}: run \`${action.cmd}\`${status}`;
    case 'commit':
      return `Action ${outcome.index}: commit "${action.message}"${status}`;
  }
}

function sessionText(arm: ArmResult): string {
  const session = arm.session!;
  const diff = arm.sandbox?.diff;
  const parts = [
    diff === undefined || diff.text.trim() === ''
      ? 'Final diff: nothing changed.'
      : `Final diff against the starting commit${diff.truncated ? ' (cut short)' : ''}:\n${diff.text}`,
    `Tool-call timeline (${session.calls.length} calls, ${session.turns} turns, stopped: ${session.stop.reason}):`,
    ...session.calls.map(callText),
  ];
  if (session.taskDone !== undefined)
    parts.push(`The repository's test command \`${session.taskDone.command}\` ${session.taskDone.passed ? 'passed' : 'failed'} afterwards.`);
  return parts.join('\n');
}

function callText(call: ToolCallRecord): string {
  const input = call.input.text.length > MAX_CALL_INPUT_CHARS ? `${call.input.text.slice(0, MAX_CALL_INPUT_CHARS)}…` : call.input.text;
  const detail = call.detail === undefined ? '' : ` — ${call.detail}`;
  return `#${call.index} turn ${call.turn} ${call.tool} [${call.decision}] ${input}${detail}`;
}

function numbered(content: string): string {
  return content
    .split('\n')
    .map((line, index) => `${String(index + 1).padStart(4)} | ${line}`)
    .join('\n');
}

function cap(text: string): string {
  return text.length <= MAX_MATERIAL_CHARS ? text : `${text.slice(0, MAX_MATERIAL_CHARS)}\n[cut: ${text.length - MAX_MATERIAL_CHARS} more characters]`;
}
