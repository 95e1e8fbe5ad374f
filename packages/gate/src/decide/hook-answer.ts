import type { GateFinding } from './tamper.js';
import type { GateAgent } from './tool-call.js';

/** What the hook process prints and how it exits; the CLI command only writes it out. */
export interface HookAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export const ALLOW: HookAnswer = { stdout: '', stderr: '', exitCode: 0 };

type AgentName = Exclude<GateAgent, 'git'>;

/**
 * A refusal of a PreToolUse call in each agent's protocol. Claude Code reads a JSON decision on
 * stdout (exit 0); Codex blocks only on exit 2 with a non-empty stderr, which it shows the model.
 */
export function denyAnswer(agent: AgentName, reason: string): HookAnswer {
  if (agent === 'claude-code') {
    const output = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
    return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
  }
  return { stdout: '', stderr: `${reason.trim() === '' ? 'holdfast: denied' : reason}\n`, exitCode: 2 };
}

/**
 * Keeps the agent working at the end of its turn (`Stop`). Both agents read the same JSON on stdout
 * with exit 0: `decision: "block"` and a non-empty `reason`, which becomes the model's next instruction.
 */
export function continueAnswer(reason: string): HookAnswer {
  return { stdout: `${JSON.stringify({ decision: 'block', reason })}\n`, stderr: '', exitCode: 0 };
}

/** Every broken rule of a call in one message: one line each, so the model can fix them all in one round. */
export function reasonOf(failures: readonly GateFinding[], notes: readonly string[] = []): string {
  const extra = notes
    .filter((note) => note !== '')
    .map((note) => ` ${note}`)
    .join('');
  if (failures.length === 1) return `holdfast: ${(failures[0] as GateFinding).detail}${extra}`;
  const lines = [`holdfast refused this call; it breaks ${failures.length} rules, fix all of them:`, ...failures.map((failure) => `- ${failure.detail}`)];
  return `${lines.join('\n')}${extra === '' ? '' : `\n${extra.trim()}`}`;
}

/** The message of a crash: it says the gate failed closed and why. */
export function internalErrorReason(error: unknown, refused = 'this tool call is refused'): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? ` [${String((error as { code: unknown }).code)}]` : '';
  return `holdfast internal error${code}: ${message}. The gate fails closed, so ${refused}; tell the person running you.`;
}
