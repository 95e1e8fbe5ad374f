import { z } from 'zod';
import type { TargetInfo } from '../contract/index.js';
import { budgetedAdapter } from './completion.js';
import type { Completion } from './completion.js';
import { callJson, parseProviderBody } from './http-json.js';
import type { AdapterRuntime, GenerateRequest, ModelAdapter } from './model-adapter.js';
import type { RetryPolicy } from './retry.js';
import { DEFAULT_TIMEOUT_MS, withRuntime } from './runtime.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicOptions {
  readonly id: string;
  readonly model: string;
  /** Without the `/v1` segment, e.g. `https://api.anthropic.com`. */
  readonly baseUrl?: string | undefined;
  readonly apiKey: string;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly retry?: Partial<RetryPolicy> | undefined;
  readonly runtime?: Partial<AdapterRuntime> | undefined;
}

const MessageResponseSchema = z.object({
  content: z.array(
    z.object({ type: z.string(), text: z.string().optional(), thinking: z.string().optional() }),
  ),
  stop_reason: z.string().nullish(),
  usage: z
    .object({ input_tokens: z.number().int().nonnegative().nullish(), output_tokens: z.number().int().nonnegative().nullish() })
    .nullish(),
});

/** Reads a Messages API body: text blocks are the reply, thinking blocks the reasoning. */
export function readAnthropicMessage(body: unknown, url: string, secrets: readonly (string | undefined)[]): Completion {
  const { content, stop_reason: stopReason, usage } = parseProviderBody(MessageResponseSchema, body, url, secrets);
  const text = content.filter((block) => block.type === 'text').map((block) => block.text ?? '').join('');
  const reasoning = content.filter((block) => block.type === 'thinking').map((block) => block.thinking ?? '').join('\n');
  return {
    text,
    ...(reasoning ? { reasoning } : {}),
    usage: {
      ...(usage?.input_tokens != null ? { inputTokens: usage.input_tokens } : {}),
      ...(usage?.output_tokens != null ? { outputTokens: usage.output_tokens } : {}),
    },
    ...(stopReason ? { finishReason: stopReason } : {}),
  };
}

/** The Anthropic Messages API over plain fetch. System messages go in the top-level `system` field. */
export function createAnthropicAdapter(options: AnthropicOptions): ModelAdapter {
  const runtime = withRuntime(options.runtime);
  const baseUrl = options.baseUrl ?? ANTHROPIC_BASE_URL;
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/messages`;
  const secrets = [options.apiKey];
  const target: TargetInfo = { id: options.id, provider: 'anthropic', model: options.model, baseUrl };

  async function send(request: GenerateRequest, maxTokens: number): Promise<Completion> {
    const system = request.messages.filter((message) => message.role === 'system').map((message) => message.content);
    const body: Record<string, unknown> = {
      model: options.model,
      max_tokens: maxTokens,
      // Anthropic refuses temperatures above 1; OpenAI's scale goes to 2.
      temperature: Math.min(1, options.temperature ?? request.temperature),
      messages: request.messages
        .filter((message) => message.role !== 'system')
        .map((message) => ({ role: message.role, content: message.content })),
    };
    if (system.length > 0) body['system'] = system.join('\n\n');
    const answer = await callJson(
      {
        url,
        headers: { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
        body,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        signal: request.signal,
        secrets,
      },
      runtime,
    );
    return readAnthropicMessage(answer, url, secrets);
  }

  return budgetedAdapter(target, { maxTokens: options.maxTokens, retry: options.retry, runtime }, send);
}
