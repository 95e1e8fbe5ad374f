import { jsonOrUndefined } from '@holdfast/core/contract';
import { capped, numberOrUndefined } from '../report.js';
import type { HarnessReport } from '../report.js';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads what `opencode run --format json` prints (opencode-ai 1.18.33): one JSON event a line, each
 * with `type` and a `part`: `step_finish` ends a model step (`reason`, `tokens` with `input`,
 * `output` and `cache.read`/`cache.write` apart), `text` is what the model said, `tool_use` a call
 * with its `state` (`status: "error"` for a call that threw, a plugin's refusal among them), `error`
 * a failed session. `inputTokens` counts the cache too: every token the model read.
 */
export function readOpenCodeResult(stdout: string): HarnessReport {
  let turns = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cachedInputTokens = 0;
  let deniedCalls = 0;
  let finalMessage: string | undefined;
  let lastReason: string | undefined;
  let error: string | undefined;
  let sessionId: string | undefined;
  for (const line of stdout.split('\n')) {
    const event = record(jsonOrUndefined(line));
    const part = record(event.part);
    if (typeof event.sessionID === 'string') sessionId = event.sessionID;
    if (event.type === 'step_finish') {
      turns += 1;
      const tokens = record(part.tokens);
      const cache = record(tokens.cache);
      const cached = (numberOrUndefined(cache.read) ?? 0) + (numberOrUndefined(cache.write) ?? 0);
      inputTokens += (numberOrUndefined(tokens.input) ?? 0) + cached;
      cachedInputTokens += cached;
      outputTokens += numberOrUndefined(tokens.output) ?? 0;
      if (typeof part.reason === 'string') lastReason = part.reason;
    } else if (event.type === 'text' && typeof part.text === 'string') finalMessage = part.text;
    else if (event.type === 'tool_use' && record(part.state).status === 'error') deniedCalls += 1;
    else if (event.type === 'error') error = JSON.stringify(event.error ?? part).slice(0, 200);
  }
  if (turns === 0 && error === undefined) return {};
  return {
    turns,
    inputTokens,
    cachedInputTokens,
    outputTokens,
    deniedCalls,
    ending: error !== undefined ? `error: ${error}` : lastReason === 'stop' ? 'success' : `step ended: ${lastReason ?? 'unknown'}`,
    ...(finalMessage !== undefined ? { finalMessage: capped(finalMessage) } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
  };
}
