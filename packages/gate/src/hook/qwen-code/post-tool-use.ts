import type { HookAnswer } from '../../decide/index.js';
import type { AfterCallProtocol } from '../agent-adapter.js';
import type { HookEvent } from '../hook-event.js';
import type { ShellOutcome } from '../shell-outcome.js';

/**
 * Qwen Code sends `PostToolUseFailure` for a command that did not exit 0, its `error` ending in the
 * shell tool's own "Exit Code: N" line (fixtures/traffic/qwen-code-0.24.4); `PostToolUse` means it
 * passed. The command's output comes before that line, so the last one is the tool's.
 */
export function qwenShellOutcome(event: HookEvent): ShellOutcome {
  if (event.name !== 'PostToolUseFailure') return { failed: false };
  const error = typeof event.raw.error === 'string' ? event.raw.error : '';
  const last = [...error.matchAll(/^Exit Code: (\S+)$/gm)].at(-1)?.[1];
  return { failed: true, ending: last !== undefined && /^\d+$/.test(last) ? `exit code ${last}` : 'it failed' };
}

/**
 * After a call Qwen Code reads `hookSpecificOutput.additionalContext` and appends it to the tool's
 * result (PostToolUse) or its error (PostToolUseFailure); a `decision: "block"` there is not read.
 */
function tell(event: string, reason: string): HookAnswer {
  return { stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: reason } })}\n`, stderr: '', exitCode: 0 };
}

export const QWEN_AFTER_CALL: AfterCallProtocol = { tell, shellOutcome: qwenShellOutcome };
