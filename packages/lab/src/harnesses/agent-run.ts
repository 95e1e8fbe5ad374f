import type { AgentClientName } from './agent-clients.js';

/** What the harness itself reports about a run (Claude Code `--output-format json`, Codex `--json`). */
export interface AgentReport {
  /** Claude Code's num_turns (model round trips); Codex's count of turn.completed events. */
  readonly turns: number | undefined;
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  /** Claude Code prices the run itself; Codex reports no cost. */
  readonly costUsd: number | undefined;
  /** Claude Code's permission_denials (a hook's deny counts); Codex reports none. */
  readonly deniedCalls: number | undefined;
  /** The agent's last message to the user. */
  readonly finalText: string | undefined;
  readonly isError: boolean;
}

export interface AgentRun {
  readonly client: AgentClientName;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Undefined when the output could not be read as the harness's report (a crash, a timeout). */
  readonly report: AgentReport | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTail: string;
  readonly stderrTail: string;
  /** The isolated HOME the run used (and CODEX_HOME under it for Codex), kept for inspection. */
  readonly home: string;
}

export interface RunAgentOptions {
  /** The repository the agent works in. */
  readonly cwd: string;
  readonly prompt: string;
  /** The model server: Claude Code's ANTHROPIC_BASE_URL; for Codex the provider base_url (ending in /v1). */
  readonly baseUrl: string;
  /** The client's executable; by default the one in the agent cache (installed there on first use). */
  readonly bin?: string;
  /** Added to the small environment the runner builds; nothing of the caller's environment leaks in otherwise. */
  readonly env?: NodeJS.ProcessEnv;
  readonly args?: readonly string[];
  readonly timeoutMs: number;
  /** An isolated HOME to use; a fresh temporary one by default. */
  readonly home?: string;
}
