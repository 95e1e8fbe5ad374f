import { z } from 'zod';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { capped } from '../report.js';
import type { HarnessReader, HarnessReport } from '../report.js';

const count = z.number().int().nonnegative();

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

/** Codex streams its events (`codex exec --json`): turns are counted as they arrive. */
export interface CodexEventReader extends HarnessReader {
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
    report(): HarnessReport {
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
