import { InputError } from '@holdfast/core/contract';
import { safeParseJson } from '@holdfast/core/contract';

/**
 * The fields both agents send with every PreToolUse event. Read by hand rather than with zod: the
 * hook runs on every tool call, and loading a schema library costs more than judging the call.
 */
export interface PreToolUseEvent {
  readonly session_id: string;
  readonly cwd: string;
  readonly hook_event_name: string | undefined;
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
}

export type SafeParse<T> = { ok: true; value: T } | { ok: false; error: InputError };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any hook event: its name (undefined when the agent sends none: the adapter says what it is) and the parsed object. */
export interface HookEvent {
  readonly name: string | undefined;
  readonly raw: Readonly<Record<string, unknown>>;
}

export function safeParseHookEvent(text: string, agentName: string): SafeParse<HookEvent> {
  const json = safeParseJson(text);
  if (!json.ok) return { ok: false, error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} hook event on stdin is not JSON`, { cause: json.cause }) };
  const raw = json.value;
  if (!isRecord(raw)) return { ok: false, error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} hook event is not a JSON object`) };
  const name = raw.hook_event_name;
  if (name !== undefined && typeof name !== 'string') {
    return { ok: false, error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} hook event has a hook_event_name that is not a string`) };
  }
  return { ok: true, value: { name, raw } };
}

export function safeParsePreToolUse(text: string, agentName: string): SafeParse<PreToolUseEvent> {
  const event = safeParseHookEvent(text, agentName);
  return event.ok ? readPreToolUse(event.value.raw, agentName) : event;
}

export function readPreToolUse(raw: Readonly<Record<string, unknown>>, agentName: string): SafeParse<PreToolUseEvent> {
  const refuse = (field: string, expected: string): SafeParse<PreToolUseEvent> => ({
    ok: false,
    error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} hook event is not a PreToolUse event (${field}: expected ${expected})`),
  });
  const { session_id: session, cwd, hook_event_name: eventName, tool_name: toolName, tool_input: toolInput } = raw;
  if (typeof session !== 'string' || session === '') return refuse('session_id', 'a non-empty string');
  if (typeof cwd !== 'string' || cwd === '') return refuse('cwd', 'a non-empty string');
  if (eventName !== undefined && typeof eventName !== 'string') return refuse('hook_event_name', 'a string');
  if (typeof toolName !== 'string' || toolName === '') return refuse('tool_name', 'a non-empty string');
  if (toolInput !== undefined && !isRecord(toolInput)) return refuse('tool_input', 'an object');
  return { ok: true, value: { session_id: session, cwd, hook_event_name: eventName, tool_name: toolName, tool_input: toolInput ?? {} } };
}

/** The end of the agent's turn: Claude Code's and Codex's `Stop`, Gemini CLI's `AfterAgent` carry the same fields the gate needs. */
export interface StopEvent {
  readonly session_id: string;
  readonly cwd: string;
  /** True when the agent is already continuing because a Stop hook sent it back. */
  readonly stop_hook_active: boolean;
}

export function readStopEvent(raw: Readonly<Record<string, unknown>>, agentName: string): SafeParse<StopEvent> {
  const { session_id: session, cwd, stop_hook_active: active } = raw;
  const refuse = (field: string, expected: string): SafeParse<StopEvent> => ({
    ok: false,
    error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} Stop event is not readable (${field}: expected ${expected})`),
  });
  if (typeof session !== 'string' || session === '') return refuse('session_id', 'a non-empty string');
  if (typeof cwd !== 'string' || cwd === '') return refuse('cwd', 'a non-empty string');
  return { ok: true, value: { session_id: session, cwd, stop_hook_active: active === true } };
}

/** A field of `tool_input`, refused with the tool and field named when it has the wrong type. */
export function inputString(event: PreToolUseEvent, field: string, options: { optional?: boolean } = {}): string {
  const value = event.tool_input[field];
  if (value === undefined && options.optional === true) return '';
  if (typeof value !== 'string') {
    throw new InputError('E_HOOK_PAYLOAD', `the ${event.tool_name} tool input has no string "${field}"`);
  }
  return value;
}

export function inputEdits(event: PreToolUseEvent): { old_string: string; new_string: string; replace_all: boolean }[] {
  const edits = event.tool_input.edits;
  if (!Array.isArray(edits)) throw new InputError('E_HOOK_PAYLOAD', `the ${event.tool_name} tool input has no "edits" list`);
  return edits.map((edit, index) => {
    if (!isRecord(edit) || typeof edit.old_string !== 'string' || typeof edit.new_string !== 'string') {
      throw new InputError('E_HOOK_PAYLOAD', `edit ${index} of the ${event.tool_name} tool input needs old_string and new_string`);
    }
    return { old_string: edit.old_string, new_string: edit.new_string, replace_all: edit.replace_all === true };
  });
}
