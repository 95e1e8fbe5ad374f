import type { HookAnswer } from '../../decide/index.js';
import type { AfterCallProtocol } from '../agent-adapter.js';
import type { HookEvent } from '../hook-event.js';
import type { ShellOutcome } from '../shell-outcome.js';

/**
 * Claude Code sends `PostToolUseFailure` for a command that exited non-zero, with `error` starting
 * "Exit code N" (fixtures/traffic/claude-code-2.1.197/bash-failing-command); `PostToolUse` means it passed.
 */
export function claudeShellOutcome(event: HookEvent): ShellOutcome {
  if (event.name !== 'PostToolUseFailure') return { failed: false };
  const error = typeof event.raw.error === 'string' ? (event.raw.error.split('\n')[0] ?? '').trim() : '';
  return { failed: true, ending: /^exit code \d+$/i.test(error) ? error.toLowerCase() : 'it failed' };
}

/** `{"decision":"block","reason"}` after a call; Claude Code's failure event takes context only. */
function tell(event: string, reason: string): HookAnswer {
  const output =
    event === 'PostToolUseFailure' ? { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: reason } } : { decision: 'block', reason };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

export const CLAUDE_CODE_AFTER_CALL: AfterCallProtocol = { tell, shellOutcome: claudeShellOutcome };
