import type { AfterCallProtocol } from '../agent-adapter.js';
import type { HookEvent } from '../hook-event.js';
import type { ShellOutcome } from '../shell-outcome.js';
import { blockDecision } from '../turn-answers.js';

/**
 * How a `bash` call ended, from Copilot CLI's after-call event. A command that exits non-zero is still
 * a `postToolUse` with `resultType: "success"` (fixtures/traffic/copilot-1.0.102): its status is only in
 * the text, a last line `<shellId: N completed with exit code C>` after the command's output. The last
 * such line is the tool's own, so output that imitates one can only make a pass read as a failure. A
 * command still running (async, detached, or past its wait) has no such line: not known to have passed.
 */
export function copilotShellOutcome(event: HookEvent): ShellOutcome {
  if (event.name === 'postToolUseFailure') return { failed: true, ending: 'it failed' };
  const result = event.raw.tool_response;
  const record = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : {};
  if (record.resultType !== 'success') return { failed: true, ending: 'Copilot CLI did not report it a success' };
  const text = typeof record.textResultForLlm === 'string' ? record.textResultForLlm : '';
  const code = [...text.matchAll(/<shellId: [^>\n]* completed with exit code (\S+?)>/g)].at(-1)?.[1];
  if (code === undefined) return { failed: true, ending: 'it did not finish while the call waited (it may still be running)' };
  return code === '0' ? { failed: false } : { failed: true, ending: /^\d+$/.test(code) ? `exit code ${code}` : 'it failed' };
}

/**
 * After a call Copilot CLI reads `{"decision":"block","reason"}`: the model reads "Tool result blocked:
 * <reason>" instead of the tool's result (the call's effects stay, which is why the gate put them back first).
 */
export const COPILOT_AFTER_CALL: AfterCallProtocol = { tell: (_event, reason) => blockDecision(reason), shellOutcome: copilotShellOutcome };
