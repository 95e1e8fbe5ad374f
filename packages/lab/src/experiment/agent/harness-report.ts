import { z } from 'zod';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** What a harness said about its own run, where it says it: Claude Code's JSON result, Codex's JSONL events. */
export interface HarnessReport {
  /** Model turns: Claude Code's `num_turns`; for Codex, its tool calls plus the final answer. */
  readonly turns?: number;
  readonly inputTokens?: number;
  readonly cachedInputTokens?: number;
  readonly outputTokens?: number;
  /** Claude Code's `total_cost_usd`; Codex reports no cost. */
  readonly costUsd?: number;
  /** How the harness says it ended (`success`, `error_max_turns`, `turn.failed`, …). */
  readonly ending?: string;
  /** The agent's last message to the person, capped. */
  readonly finalMessage?: string;
  readonly sessionId?: string;
}

const FINAL_MESSAGE_CAP = 4_000;

function capped(text: string): string {
  return text.length <= FINAL_MESSAGE_CAP ? text : `${text.slice(0, FINAL_MESSAGE_CAP - 1)}…`;
}

const count = z.number().int().nonnegative();

const ClaudeResultSchema = z.object({
  type: z.literal('result'),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  num_turns: count.optional(),
  result: z.string().optional(),
  session_id: z.string().optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  usage: z
    .object({
      input_tokens: count.optional(),
      cache_creation_input_tokens: count.optional(),
      cache_read_input_tokens: count.optional(),
      output_tokens: count.optional(),
    })
    .optional(),
});

/**
 * Claude Code's `--output-format json` prints one result object at the end. Anything else on
 * stdout (a warning, a partial line after a kill) is skipped; no result at all is an empty report.
 */
export function readClaudeCodeResult(stdout: string): HarnessReport {
  const lines = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('{'));
  for (const line of lines.reverse()) {
    const parsed = ClaudeResultSchema.safeParse(jsonOrUndefined(line));
    if (!parsed.success) continue;
    const result = parsed.data;
    const usage = result.usage;
    const input = usage === undefined ? undefined : (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
    return {
      ...(result.num_turns !== undefined ? { turns: result.num_turns } : {}),
      ...(input !== undefined ? { inputTokens: input } : {}),
      ...(usage?.cache_read_input_tokens !== undefined ? { cachedInputTokens: usage.cache_read_input_tokens } : {}),
      ...(usage?.output_tokens !== undefined ? { outputTokens: usage.output_tokens } : {}),
      ...(result.total_cost_usd !== undefined ? { costUsd: result.total_cost_usd } : {}),
      ...(result.subtype !== undefined ? { ending: result.subtype } : {}),
      ...(result.result !== undefined ? { finalMessage: capped(result.result) } : {}),
      ...(result.session_id !== undefined ? { sessionId: result.session_id } : {}),
    };
  }
  return {};
}

const CodexUsageSchema = z.object({ input_tokens: count.optional(), cached_input_tokens: count.optional(), output_tokens: count.optional() });
const CodexEventSchema = z.object({
  type: z.string(),
  thread_id: z.string().optional(),
  usage: CodexUsageSchema.optional(),
  item: z.object({ type: z.string(), text: z.string().optional() }).loose().optional(),
  error: z.object({ message: z.string().optional() }).loose().optional(),
  message: z.string().optional(),
});

/** Codex items that are the model acting: each one took a model response to ask for. */
const CODEX_TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

export interface CodexEventReader {
  /** One line of `codex exec --json` stdout. */
  push(line: string): void;
  /** Turns so far, for the turn cap. */
  turns(): number;
  report(): HarnessReport;
}

/** Folds Codex's JSONL events as they arrive, so the turn cap can stop a run that goes on too long. */
export function createCodexEventReader(): CodexEventReader {
  let toolCalls = 0;
  let answered = false;
  let inputTokens: number | undefined;
  let cachedInputTokens: number | undefined;
  let outputTokens: number | undefined;
  let ending: string | undefined;
  let finalMessage: string | undefined;
  let sessionId: string | undefined;
  const add = (total: number | undefined, value: number | undefined) => (value === undefined ? total : (total ?? 0) + value);
  return {
    push(line) {
      const trimmed = line.trim();
      if (!trimmed.startsWith('{')) return;
      const parsed = CodexEventSchema.safeParse(jsonOrUndefined(trimmed));
      if (!parsed.success) return;
      const event = parsed.data;
      if (event.type === 'thread.started' && event.thread_id !== undefined) sessionId = event.thread_id;
      if (event.type === 'item.completed' && event.item !== undefined) {
        if (CODEX_TOOL_ITEMS.has(event.item.type)) toolCalls += 1;
        if (event.item.type === 'agent_message') {
          answered = true;
          if (event.item.text !== undefined) finalMessage = capped(event.item.text);
        }
      }
      if ((event.type === 'turn.completed' || event.type === 'turn.failed') && event.usage !== undefined) {
        inputTokens = add(inputTokens, event.usage.input_tokens);
        cachedInputTokens = add(cachedInputTokens, event.usage.cached_input_tokens);
        outputTokens = add(outputTokens, event.usage.output_tokens);
      }
      if (event.type === 'turn.completed') ending = 'turn.completed';
      if (event.type === 'turn.failed') ending = `turn.failed${event.error?.message !== undefined ? `: ${event.error.message}` : ''}`;
      if (event.type === 'error' && ending === undefined) ending = `error${event.message !== undefined ? `: ${event.message}` : ''}`;
    },
    turns: () => toolCalls + (answered ? 1 : 0),
    report() {
      const turns = toolCalls + (answered ? 1 : 0);
      return {
        ...(turns > 0 ? { turns } : {}),
        ...(inputTokens !== undefined ? { inputTokens } : {}),
        ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
        ...(outputTokens !== undefined ? { outputTokens } : {}),
        ...(ending !== undefined ? { ending } : {}),
        ...(finalMessage !== undefined ? { finalMessage } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
      };
    },
  };
}
