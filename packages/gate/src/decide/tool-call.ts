import type { Action } from '@holdfast/core/contract';
import type { GateBypass } from '../shell/index.js';

export type GateAgent = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'opencode' | 'copilot-cli' | 'git';
export const GATE_AGENTS: readonly GateAgent[] = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'opencode', 'copilot-cli', 'git'];

/**
 * One agent tool call read as holdfast actions, with paths relative to the project root. A tool the
 * gate does not judge (Read, Grep, an MCP tool) has no actions and is let through.
 */
export interface ToolCall {
  readonly agent: GateAgent;
  readonly session: string;
  /** The project root: the agent's working directory. State and the audit log live under it. */
  readonly cwd: string;
  readonly tool: string;
  readonly actions: Action[];
  /** Every attempt the call makes to skip or disable git hooks or the gate. */
  readonly bypasses: GateBypass[];
  /** Non-empty when the call may change files in ways not known before it runs (judged after it, by the post-check). */
  readonly unknownEffects: string[];
}
