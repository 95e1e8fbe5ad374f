import type { Judgement } from './judge.js';
import type { GateAgent } from './tool-call.js';

/** What the hook process prints and how it exits; the CLI command only writes it out. */
export interface HookAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export const BYPASS_VARIABLE = 'HOLDFAST_GATE';
export const BYPASS_HINT = `To bypass the gate deliberately, set ${BYPASS_VARIABLE}=off in the agent's environment.`;

export const ALLOW: HookAnswer = { stdout: '', stderr: '', exitCode: 0 };

/**
 * A refusal in each agent's protocol. Claude Code reads a JSON decision on stdout (exit 0); Codex
 * blocks only on exit 2 with a non-empty stderr, which it shows the model.
 */
export function denyAnswer(agent: Exclude<GateAgent, 'git'>, reason: string): HookAnswer {
  if (agent === 'claude-code') {
    const output = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
    return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
  }
  return { stdout: '', stderr: `${reason.trim() === '' ? 'holdfast: denied' : reason}\n`, exitCode: 2 };
}

export function reasonOf(judgement: Extract<Judgement, { decision: 'deny' }>): string {
  return judgement.detail.startsWith('holdfast') ? judgement.detail : `holdfast: ${judgement.detail}`;
}

/** The message of a crash: it says the gate failed closed, why, and the deliberate way round it. */
export function internalErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? ` [${String((error as { code: unknown }).code)}]` : '';
  return `holdfast internal error${code}: ${message}. The gate fails closed, so this tool call is refused. ${BYPASS_HINT}`;
}
