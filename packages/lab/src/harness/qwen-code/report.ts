import { jsonOrUndefined } from '@holdfast/core/contract';
import { capped, numberOrUndefined } from '../report.js';
import type { HarnessReport } from '../report.js';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads what `qwen -p --output-format json` prints: one JSON array of messages (Claude Code's
 * stream-json shapes) whose last is the `result` (`subtype`, `result`, `num_turns`, `usage`,
 * `is_error`, `permission_denials`, `session_id`). Its `input_tokens` is the OpenAI prompt count,
 * every input token. No cost. No result at all is an empty report.
 */
export function readQwenCodeResult(stdout: string): HarnessReport {
  const start = stdout.indexOf('[');
  const parsed = start < 0 ? undefined : jsonOrUndefined(stdout.slice(start));
  if (!Array.isArray(parsed)) return {};
  const result = [...parsed]
    .reverse()
    .map(record)
    .find((message) => message.type === 'result');
  if (result === undefined) return {};
  const usage = record(result.usage);
  const turns = numberOrUndefined(result.num_turns);
  const inputTokens = numberOrUndefined(usage.input_tokens);
  const outputTokens = numberOrUndefined(usage.output_tokens);
  const subtype = typeof result.subtype === 'string' ? result.subtype : undefined;
  const ending = result.is_error === true ? `error${subtype !== undefined ? `: ${subtype}` : ''}` : (subtype ?? 'success');
  return {
    ...(turns !== undefined ? { turns } : {}),
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(Array.isArray(result.permission_denials) ? { deniedCalls: result.permission_denials.length } : {}),
    ending,
    ...(typeof result.result === 'string' ? { finalMessage: capped(result.result) } : {}),
    ...(typeof result.session_id === 'string' ? { sessionId: result.session_id } : {}),
  };
}
