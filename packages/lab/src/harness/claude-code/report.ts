import { z } from 'zod';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { capped } from '../report.js';
import type { HarnessReader, HarnessReport } from '../report.js';

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
  permission_denials: z.array(z.unknown()).optional(),
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
      ...(result.permission_denials !== undefined ? { deniedCalls: result.permission_denials.length } : {}),
      ...(result.subtype !== undefined ? { ending: result.subtype } : {}),
      ...(result.result !== undefined ? { finalMessage: capped(result.result) } : {}),
      ...(result.session_id !== undefined ? { sessionId: result.session_id } : {}),
    };
  }
  return {};
}

/** Claude Code says everything at the end: its lines are not read as they come. */
export function createClaudeCodeReader(): HarnessReader {
  return { push: () => undefined, turns: () => undefined, report: readClaudeCodeResult };
}
