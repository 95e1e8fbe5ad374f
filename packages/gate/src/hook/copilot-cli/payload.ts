import { InputError, safeParseJson } from '@holdfast/core/contract';
import type { HookEvent, SafeParse } from '../hook-event.js';

/** Copilot CLI's hook events the gate installs (`.github/hooks/holdfast.json`), by their names in that file. */
export const COPILOT_EVENTS = ['preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop'] as const;
type CopilotEvent = (typeof COPILOT_EVENTS)[number];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Which event a payload is. Copilot CLI names none (fixtures/traffic/copilot-1.0.102): a tool call's
 * payload carries `toolName` and `toolArgs`, after a successful call `toolResult` too, after a failed
 * one `error`; the end of the turn `stopReason`. Copilot CLI writes these top-level fields itself (the
 * model's text is only ever inside `toolArgs` or `toolResult`), and the gate's command is registered
 * for its four events only, so the fields tell them apart.
 */
function eventOf(raw: Readonly<Record<string, unknown>>): CopilotEvent | undefined {
  if (raw.toolName === undefined) return raw.stopReason !== undefined || raw.stop_hook_active !== undefined ? 'agentStop' : undefined;
  if (raw.toolResult !== undefined) return 'postToolUse';
  if (raw.error !== undefined) return 'postToolUseFailure';
  return 'preToolUse';
}

/** `toolArgs` is an object in 1.0.102; GitHub's hook reference shows it as JSON text, which is read the same. */
function toolInput(raw: Readonly<Record<string, unknown>>): SafeParse<Record<string, unknown> | undefined> {
  const args = raw.toolArgs;
  if (args === undefined || isRecord(args)) return { ok: true, value: args };
  if (typeof args === 'string') {
    const json = safeParseJson(args);
    if (json.ok && isRecord(json.value)) return { ok: true, value: json.value };
  }
  return { ok: false, error: new InputError('E_HOOK_PAYLOAD', 'the Copilot CLI hook event has a toolArgs that is neither an object nor JSON text of one') };
}

/**
 * A Copilot CLI payload in the field names the agent-free flow reads (Claude Code's): its event,
 * `session_id`, `tool_name`, `tool_input`, `tool_response`; `cwd` and `stop_hook_active` are already
 * named so. Copilot CLI sends no id per tool call: an after-call event is paired with the session's
 * open snapshot, as Gemini CLI's are.
 */
export function readCopilotPayload(raw: Readonly<Record<string, unknown>>): SafeParse<HookEvent> {
  const name = eventOf(raw);
  const input = toolInput(raw);
  if (!input.ok) return input;
  const named: Record<string, unknown> = {
    ...raw,
    ...(name === undefined ? {} : { hook_event_name: name }),
    ...(raw.sessionId === undefined ? {} : { session_id: raw.sessionId }),
    ...(raw.toolName === undefined ? {} : { tool_name: raw.toolName }),
    ...(input.value === undefined ? {} : { tool_input: input.value }),
    ...(raw.toolResult === undefined ? {} : { tool_response: raw.toolResult }),
  };
  return { ok: true, value: { name, raw: named } };
}
