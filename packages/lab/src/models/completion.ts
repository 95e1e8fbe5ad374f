import type { TargetInfo, Usage } from '@holdfast/core/contract';
import type { AdapterRuntime, GenerateRequest, GenerateResult, ModelAdapter } from './model-adapter.js';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.js';
import type { RetryPolicy } from './retry.js';

/** What one provider call produced, before latency and attempts are added. */
export interface Completion {
  readonly text: string;
  readonly reasoning?: string;
  readonly usage: Usage;
  readonly finishReason?: string;
}

/** The budget a second try gets when thinking ate the first one: 8,000 → 10,000. */
export function expandedBudget(maxTokens: number): number {
  return Math.max(10_000, Math.ceil(maxTokens * 1.25));
}

/**
 * A reasoning model that spent its whole budget thinking comes back with empty content and billed
 * reasoning tokens (or finish reason `length`). That is a budget problem, not the model's answer.
 */
export function ranOutThinking(completion: Completion): boolean {
  if (completion.text.trim() !== '') return false;
  return (completion.usage.reasoningTokens ?? 0) > 0 || completion.finishReason === 'length' || completion.finishReason === 'max_tokens';
}

/**
 * Runs `send` with retries, and once more with a larger budget when the first answer ran out thinking.
 * Latency covers everything, waits included; attempts counts every call.
 */
async function completeWithBudget(
  send: (maxTokens: number) => Promise<Completion>,
  options: { maxTokens: number; policy: RetryPolicy; runtime: AdapterRuntime; signal?: AbortSignal | undefined },
): Promise<GenerateResult> {
  const { runtime } = options;
  const started = runtime.now();
  const retryOptions = { policy: options.policy, runtime, signal: options.signal };
  const first = await withRetries(() => send(options.maxTokens), retryOptions);
  let completion = first.value;
  let attempts = first.attempts;
  if (ranOutThinking(completion)) {
    const budget = expandedBudget(options.maxTokens);
    const second = await withRetries(() => send(budget), retryOptions);
    completion = second.value;
    attempts += second.attempts;
  }
  return { ...completion, latencyMs: Math.max(0, runtime.now() - started), attempts };
}

/**
 * An HTTP adapter from its one-call `send`: every generate goes through completeWithBudget with the
 * target's retry policy, and a `maxTokens` fixed by the target overrides the request's.
 */
export function budgetedAdapter(
  target: TargetInfo,
  settings: { maxTokens?: number | undefined; retry?: Partial<RetryPolicy> | undefined; runtime: AdapterRuntime },
  send: (request: GenerateRequest, maxTokens: number) => Promise<Completion>,
): ModelAdapter {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...settings.retry };
  return {
    target,
    generate(request: GenerateRequest): Promise<GenerateResult> {
      return completeWithBudget((maxTokens) => send(request, maxTokens), {
        maxTokens: settings.maxTokens ?? request.maxTokens,
        policy,
        runtime: settings.runtime,
        signal: request.signal,
      });
    },
  };
}
