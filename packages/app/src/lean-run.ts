import type { ArmResult, RunEvent } from '@holdfast/core/contract';
import { jsonOrUndefined } from '@holdfast/core/contract';

/**
 * The lean view of a saved run: every event, with the bulk of each arm's result left out — the raw
 * reply, the reasoning, written file contents, the sandbox diff and command output, and a session's
 * tool inputs and outputs. What the strip,
 * the totals and the round list read (verdicts, reasons, action statuses, rules, details, checks,
 * usage, latency) stays as it was, so a lean run reduces to the same totals as the full one.
 *
 * The contract's required strings (`generation.raw`, a write's `content`, capped texts) become `''`
 * instead of disappearing, so a lean event is still a valid RunEvent; the client knows the view is
 * lean because it asked for it, and fetches a round's full events when it opens one.
 */
export function leanArmResult(result: ArmResult): ArmResult {
  const copy = structuredClone(result) as unknown as Json;
  leanParsedResult(copy);
  return copy as unknown as ArmResult;
}

export function leanRunEvent(event: RunEvent): RunEvent {
  return event.type === 'arm-end' ? { ...event, result: leanArmResult(event.result) } : event;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blankText(holder: unknown): void {
  if (isObject(holder) && typeof holder['text'] === 'string') holder['text'] = '';
}

/**
 * The one trimming, in place, on an arm result that may not have been validated yet (a line of the
 * file as parsed JSON): the server leaves validation to the reader, so a line the contract rejects
 * stays rejected (it is only ever made smaller, never repaired). `leanArmResult` runs it on a copy.
 */
function leanParsedResult(result: Json): void {
  delete result['reasoning'];
  const generation = result['generation'];
  if (isObject(generation)) {
    delete generation['reasoning'];
    if (typeof generation['raw'] === 'string') generation['raw'] = '';
  }
  const actions = result['actions'];
  if (Array.isArray(actions)) {
    for (const outcome of actions) {
      const action = isObject(outcome) ? outcome['action'] : undefined;
      if (isObject(action) && action['type'] === 'write' && typeof action['content'] === 'string') action['content'] = '';
    }
  }
  const sandbox = result['sandbox'];
  if (isObject(sandbox)) {
    blankText(sandbox['diff']);
    const commands = sandbox['commands'];
    if (Array.isArray(commands)) for (const command of commands) if (isObject(command)) blankText(command['output']);
  }
  const session = result['session'];
  if (isObject(session)) {
    const calls = session['calls'];
    if (Array.isArray(calls)) {
      for (const call of calls) {
        if (!isObject(call)) continue;
        blankText(call['input']);
        blankText(call['output']);
        const callActions = call['actions'];
        if (Array.isArray(callActions)) {
          for (const action of callActions) if (isObject(action) && action['type'] === 'write' && typeof action['content'] === 'string') action['content'] = '';
        }
      }
    }
    const taskDone = session['taskDone'];
    if (isObject(taskDone) && typeof taskDone['outputTail'] === 'string') taskDone['outputTail'] = '';
  }
}

export interface LeanLine {
  /** The line to send: trimmed if it was an arm-end, else as it was. */
  readonly text: string;
  /** The round the line belongs to, when it is a round's event. */
  readonly roundId?: string;
}

/** One line of a run file, made lean. A line that is not JSON is passed on untouched for the reader to report. */
export function leanRunFileLine(line: string): LeanLine {
  if (line.trim() === '') return { text: line };
  const value = jsonOrUndefined(line);
  if (!isObject(value)) return { text: line };
  const roundId = typeof value['roundId'] === 'string' ? value['roundId'] : undefined;
  if (value['type'] !== 'arm-end') return roundId === undefined ? { text: line } : { text: line, roundId };
  if (isObject(value['result'])) leanParsedResult(value['result']);
  const text = JSON.stringify(value);
  return roundId === undefined ? { text } : { text, roundId };
}
