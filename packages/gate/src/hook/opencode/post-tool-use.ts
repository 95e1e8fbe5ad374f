import type { AfterCallProtocol } from '../agent-adapter.js';
import type { HookEvent } from '../hook-event.js';
import type { ShellOutcome } from '../shell-outcome.js';
import { openCodeMessage } from './pre-tool-use.js';

/**
 * OpenCode fires `tool.execute.after` only for a call that returned (a thrown tool error fires
 * nothing after it); its bash tool returns whatever the exit status, with the status in the result's
 * `metadata.exit` (fixtures/traffic/opencode-1.18.33). holdfast's plugin sends that number as
 * `tool_response.exit`; a result without one (the command was killed, a newer release) counts as failed:
 * a test run counts for R6 only when it is known to have passed.
 */
export function openCodeShellOutcome(event: HookEvent): ShellOutcome {
  const response = event.raw.tool_response;
  const exit = typeof response === 'object' && response !== null ? (response as Record<string, unknown>).exit : undefined;
  if (exit === 0) return { failed: false };
  return { failed: true, ending: typeof exit === 'number' ? `exit code ${exit}` : 'OpenCode reported no exit status' };
}

/** After a call the plugin appends the gate's message to the tool's output, which is what the model reads. */
export const OPENCODE_AFTER_CALL: AfterCallProtocol = { tell: (_event, reason) => openCodeMessage(reason), shellOutcome: openCodeShellOutcome };
