import { jsonOrUndefined } from '@holdfast/core/contract';
import { capped, numberOrUndefined } from '../report.js';
import type { HarnessReader, HarnessReport } from '../report.js';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads the JSON object `gemini -p --output-format json` prints: `response`, `stats.models` (requests
 * and tokens per model: `prompt` holds every input token, `cached` the part served from its cache),
 * and `error` when the run failed. No object at all is an empty report.
 */
export function readGeminiResult(stdout: string): HarnessReport {
  const start = stdout.indexOf('{');
  const parsed = start < 0 ? {} : record(jsonOrUndefined(stdout.slice(start)));
  if (Object.keys(parsed).length === 0) return {};
  const models = Object.values(record(record(parsed.stats).models)).map(record);
  const sum = (read: (model: Record<string, unknown>) => unknown) =>
    models.reduce<number | undefined>((total, model) => {
      const value = numberOrUndefined(read(model));
      return value === undefined ? total : (total ?? 0) + value;
    }, undefined);
  const turns = sum((model) => record(model.api).totalRequests);
  const inputTokens = sum((model) => record(model.tokens).prompt);
  const cachedInputTokens = sum((model) => record(model.tokens).cached);
  const outputTokens = sum((model) => record(model.tokens).candidates);
  const error = record(parsed.error);
  const ending = parsed.error === undefined ? 'success' : `error${typeof error.message === 'string' ? `: ${error.message}` : ''}`;
  return {
    ...(turns !== undefined ? { turns } : {}),
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ending,
    ...(typeof parsed.response === 'string' ? { finalMessage: capped(parsed.response) } : {}),
    ...(typeof parsed.session_id === 'string' ? { sessionId: parsed.session_id } : {}),
  };
}

/** Gemini CLI says everything at the end, in one JSON object; its turn cap is a setting (see prepareGeminiHome). */
export function createGeminiReader(): HarnessReader {
  return { push: () => undefined, turns: () => undefined, report: readGeminiResult };
}
