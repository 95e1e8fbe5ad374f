/**
 * What a harness said about its own run, where it says it: Claude Code's JSON result, Codex's JSONL
 * events, Gemini CLI's JSON stats. One token rule for all of them: `inputTokens` is every token the
 * model read, cached or not (Claude Code's input plus cache creation plus cache reads; Codex's and
 * Gemini CLI's prompt count, which already hold their cached tokens); `cachedInputTokens` is the
 * part of it read from a cache.
 */
export interface HarnessReport {
  /** Model turns: Claude Code's `num_turns`; for Codex, its tool calls plus the final answer; Gemini CLI's model requests. */
  readonly turns?: number;
  readonly inputTokens?: number;
  readonly cachedInputTokens?: number;
  readonly outputTokens?: number;
  /** Claude Code's `total_cost_usd`; the others report no cost. */
  readonly costUsd?: number;
  /** Claude Code's `permission_denials` (a hook's deny counts); the others report none. */
  readonly deniedCalls?: number;
  /** How the harness says it ended (`success`, `error_max_turns`, `turn.completed`, `turn.failed: …`, `error: …`). */
  readonly ending?: string;
  /** The agent's last message to the person, capped. */
  readonly finalMessage?: string;
  readonly sessionId?: string;
}

/**
 * Reads one run's stdout. A harness that streams its events (Codex) is read line by line as they
 * arrive, so the turn cap can stop a run that goes on too long; the others are read whole at the end.
 */
export interface HarnessReader {
  /** One stdout line, as it arrives. */
  push(line: string): void;
  /** Turns so far, for the turn cap; undefined when the harness says so only at the end (it takes its cap on the command line). */
  turns(): number | undefined;
  /** The report, from the lines pushed and the whole stdout kept. */
  report(stdout: string): HarnessReport;
}

const FINAL_MESSAGE_CAP = 4_000;

export function capped(text: string): string {
  return text.length <= FINAL_MESSAGE_CAP ? text : `${text.slice(0, FINAL_MESSAGE_CAP - 1)}…`;
}

export function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
