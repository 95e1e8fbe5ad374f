import type { AfterCallProtocol } from '../agent-adapter.js';
import type { HookEvent } from '../hook-event.js';
import type { ShellOutcome } from '../shell-outcome.js';
import { blockDecision } from '../turn-answers.js';

/**
 * How a `run_shell_command` call ended, from Gemini CLI's AfterTool event: `tool_response.llmContent`
 * is "Output: …" followed, for a command that did not exit 0, by a line "Exit Code: N" (and
 * "Signal: …"); a cancelled or backgrounded command says so instead. The last such line is the
 * tool's own (the command's output comes before it), so output that imitates one can only make a
 * passing command read as failed, never the reverse. Anything not known to have passed failed.
 */
export function geminiShellOutcome(event: HookEvent): ShellOutcome {
  const response = event.raw.tool_response;
  const record = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  const content = typeof record.llmContent === 'string' ? record.llmContent : undefined;
  if (content === undefined) return { failed: true, ending: 'Gemini CLI sent no tool output to read its exit status from' };
  if (record.error !== undefined && record.error !== null) return { failed: true, ending: 'it failed' };
  const codes = [...content.matchAll(/^Exit Code: (\S+)$/gm)];
  const last = codes.at(-1)?.[1];
  if (last !== undefined) return { failed: true, ending: /^\d+$/.test(last) ? `exit code ${last}` : 'it failed' };
  if (/^Signal: /m.test(content)) return { failed: true, ending: 'it was ended by a signal' };
  if (!/^(?:<untrusted_context>\n)?Output: /.test(content)) return { failed: true, ending: 'it was cancelled or moved to the background' };
  return { failed: false };
}

/**
 * After a call Gemini CLI reads `{"decision":"block","reason"}` (deny's alias): the tool's result is
 * replaced by the reason, marked as an error, which is what the model must read once the gate put
 * the call's changes back.
 */
export const GEMINI_AFTER_CALL: AfterCallProtocol = { tell: (_event, reason) => blockDecision(reason), shellOutcome: geminiShellOutcome };
