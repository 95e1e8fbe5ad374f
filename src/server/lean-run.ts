import type { ArmResult, RunEvent } from '../contract/index.js';

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
  const { reasoning: _reasoning, ...rest } = result;
  const lean: ArmResult = {
    ...rest,
    actions: result.actions.map((outcome) => (outcome.action.type === 'write' ? { ...outcome, action: { ...outcome.action, content: '' } } : outcome)),
  };
  if (result.generation !== undefined) {
    const { reasoning: _generationReasoning, ...generation } = result.generation;
    lean.generation = { ...generation, raw: '' };
  }
  if (result.sandbox !== undefined) {
    lean.sandbox = {
      ...result.sandbox,
      diff: { ...result.sandbox.diff, text: '' },
      commands: result.sandbox.commands.map((command) => (command.output === undefined ? command : { ...command, output: { ...command.output, text: '' } })),
    };
  }
  if (result.session !== undefined) {
    lean.session = {
      ...result.session,
      calls: result.session.calls.map((call) => ({
        ...call,
        input: { ...call.input, text: '' },
        actions: call.actions.map((action) => (action.type === 'write' ? { ...action, content: '' } : action)),
        ...(call.output !== undefined ? { output: { ...call.output, text: '' } } : {}),
      })),
      ...(result.session.taskDone !== undefined ? { taskDone: { ...result.session.taskDone, outputTail: '' } } : {}),
    };
  }
  return lean;
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
 * The same trimming as `leanArmResult`, on a line of the file as parsed JSON that has not been
 * validated yet: the server leaves validation to the reader, so a line the contract rejects stays
 * rejected (it is only ever made smaller, never repaired).
 */
function leanParsedArmEnd(event: Json): void {
  const result = event['result'];
  if (!isObject(result)) return;
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
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    return { text: line };
  }
  if (!isObject(value)) return { text: line };
  const roundId = typeof value['roundId'] === 'string' ? value['roundId'] : undefined;
  if (value['type'] !== 'arm-end') return roundId === undefined ? { text: line } : { text: line, roundId };
  leanParsedArmEnd(value);
  const text = JSON.stringify(value);
  return roundId === undefined ? { text } : { text, roundId };
}
