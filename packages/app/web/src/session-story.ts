import { jsonOrUndefined } from '@holdfast/core/browser';
import type { Action, Session, ToolCallRecord } from '@holdfast/core/browser';

/** One argument of a tool call, as a person reads it: a path, a command, a message, or a value. */
export interface CallArgument {
  readonly name: string;
  readonly value: string;
  /** Long text (a file's content, a replacement) shown as a block, not inline. */
  readonly block: boolean;
}

const INLINE_LIMIT = 80;

/**
 * A call's input JSON as named arguments, in the order the model wrote them; a value that is not
 * a string is shown as compact JSON. Input that is not a JSON object is one argument, `input`.
 */
export function readableArguments(text: string): CallArgument[] {
  const parsed = jsonOrUndefined(text);
  if (parsed === undefined || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return text === '' ? [] : [{ name: 'input', value: text, block: text.length > INLINE_LIMIT || text.includes('\n') }];
  }
  return Object.entries(parsed).map(([name, value]) => {
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    return { name, value: shown, block: shown.length > INLINE_LIMIT || shown.includes('\n') };
  });
}

/** What each write of the session replaced: the file as the task left it, or as an earlier call of the session wrote it. */
export function contentsBefore(calls: readonly ToolCallRecord[], files: Readonly<Record<string, string>>): Map<ToolCallRecord, (string | null)[]> {
  const current = new Map<string, string | null>(Object.entries(files));
  const before = new Map<ToolCallRecord, (string | null)[]>();
  for (const call of calls) {
    const applied = call.decision === 'applied' || call.decision === 'observed' || call.decision === 'allowed-by-person' || call.decision === 'warned';
    before.set(
      call,
      call.actions.map((action) => (action.type === 'write' || action.type === 'delete' ? (current.get(action.path) ?? null) : null)),
    );
    if (!applied) continue;
    for (const action of call.actions) {
      if (action.type === 'write') current.set(action.path, action.content);
      else if (action.type === 'delete') current.set(action.path, null);
    }
  }
  return before;
}

/** Whether an action's written content is really there (a lean or gate-recorded write keeps only its path). */
export function hasContent(action: Action): boolean {
  return action.type === 'write' && action.content !== '';
}

/**
 * How the session ended, in one line that never contradicts the timeline: the stop reason, the
 * calls the gate saw and the turns, where the harness reports them (an agent harness that does
 * not is "turns not reported", never "0 turns" beside a list of calls).
 */
export function sessionEnd(session: Session): string {
  const calls = `${session.calls.length} tool call${session.calls.length === 1 ? '' : 's'} seen by holdfast`;
  const turns =
    session.turns > 0
      ? `${session.turns} turn${session.turns === 1 ? '' : 's'}`
      : session.mode === 'agent'
        ? 'turns not reported by the harness'
        : session.calls.length === 0
          ? 'no turn'
          : 'turns not recorded';
  const detail = session.stop.detail !== undefined ? ` (${session.stop.detail})` : '';
  return `${session.stop.reason}${detail} · ${calls} · ${turns}`;
}

/** Task done and why, from the acceptance check's own result. */
export function taskDoneText(session: Session): string {
  const done = session.taskDone;
  if (done === undefined) return 'not judged: no acceptance check ran for this arm';
  const exit = done.exitCode !== undefined ? `exited ${done.exitCode}` : done.passed ? 'passed' : 'failed';
  const detail = done.detail !== undefined && done.detail !== `Exited with code ${done.exitCode ?? ''}.` ? ` · ${done.detail}` : '';
  return `${done.passed ? 'yes' : 'no'}: \`${done.command}\` ${exit}${detail}`;
}

/**
 * Why a session has no tool call to show. With something landed, the calls went where holdfast
 * does not watch (a harness with no hook, a commit around the gate), so what landed is read from
 * the repository; with nothing landed, the agent simply called no tool.
 */
export function noCallsText(session: Session, commits: number): string {
  if (session.landed.length > 0 || commits > 0) {
    return `No tool call reached holdfast in this arm (the harness has no hook holdfast can install, or the work went around it); what landed is read from the repository: ${commits} commit${commits === 1 ? '' : 's'}, ${session.landed.length} violation${session.landed.length === 1 ? '' : 's'}.`;
  }
  return 'The agent called no tool.';
}
