import type { HookAnswer } from '../decide/index.js';

/**
 * `{"decision":"block","reason"}` on stdout, exit 0: Claude Code, Codex and Gemini CLI all read it at
 * the end of a turn (Gemini CLI names it `deny`, `block` its alias) as "keep working, and here is why".
 */
export function blockDecision(reason: string): HookAnswer {
  return { stdout: `${JSON.stringify({ decision: 'block', reason })}\n`, stderr: '', exitCode: 0 };
}

/** `continue: false` with the reason for the person: the agent's loop stops (the same fields in Claude Code, Codex and Gemini CLI). */
export function stopSession(message: string): HookAnswer {
  return { stdout: `${JSON.stringify({ continue: false, stopReason: message, systemMessage: message })}\n`, stderr: '', exitCode: 0 };
}
