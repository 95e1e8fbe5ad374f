import { z } from 'zod';
import type { TargetInfo } from '@holdfast/core/contract';
import { budgetedAdapter } from './completion.js';
import type { Completion } from './completion.js';
import { callJson, parseProviderBody } from './http-json.js';
import type { AdapterRuntime, GenerateRequest, ModelAdapter } from './model-adapter.js';
import type { RetryPolicy } from './retry.js';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.js';
import { DEFAULT_TIMEOUT_MS, withRuntime } from './runtime.js';
import { readToolInput } from './tool-calling.js';
import type { ConversationMessage, ConverseRequest, ConverseResult, ToolCallRequest, ToolSpec } from './tool-calling.js';

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
  /** The answer's size cap in bytes (default DEFAULT_MAX_REPLY_BYTES): a bigger reply is cut off and recorded as too large. */
  readonly maxReplyBytes?: number | undefined;
  readonly retry?: Partial<RetryPolicy> | undefined;
  readonly runtime?: Partial<AdapterRuntime> | undefined;
}

const MessageResponseSchema = z.object({
  content: z.array(
    z.object({
      type: z.string(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      id: z.string().optional(),
      name: z.string().optional(),
      input: z.unknown().optional(),
    }),
  ),
  stop_reason: z.string().nullish(),
  usage: z.object({ input_tokens: z.number().int().nonnegative().nullish(), output_tokens: z.number().int().nonnegative().nullish() }).nullish(),
});

/** Reads a Messages API body: text blocks are the reply, thinking blocks the reasoning. */
export function readAnthropicMessage(body: unknown, url: string, secrets: readonly (string | undefined)[]): Completion {
  const { content, stop_reason: stopReason, usage } = parseProviderBody(MessageResponseSchema, body, url, secrets);
  const text = content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
  const reasoning = content
    .filter((block) => block.type === 'thinking')
    .map((block) => block.thinking ?? '')
    .join('\n');
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

/** The `tool_use` blocks of a Messages API body. */
function readAnthropicToolCalls(body: unknown, url: string, secrets: readonly (string | undefined)[]): ToolCallRequest[] {
  const { content } = parseProviderBody(MessageResponseSchema, body, url, secrets);
  return content
    .filter((block) => block.type === 'tool_use')
    .map((block, position) => ({ id: block.id ?? `toolu_${position}`, name: block.name ?? '', ...readToolInput(block.input ?? {}) }));
}

/**
 * The conversation as Messages API turns: tool calls are `tool_use` blocks of the assistant turn,
 * their results `tool_result` blocks of the next user turn. System messages go to `system`.
 */
export function anthropicMessages(messages: readonly ConversationMessage[]): { system: string | undefined; messages: Record<string, unknown>[] } {
  const system = messages.flatMap((message) => (message.role === 'system' ? [message.content] : []));
  const turns = messages.flatMap((message): Record<string, unknown>[] => {
    switch (message.role) {
      case 'system':
        return [];
      case 'user':
        return [{ role: 'user', content: message.content }];
      case 'assistant':
        return [
          {
            role: 'assistant',
            content: [
              ...(message.content !== '' ? [{ type: 'text', text: message.content }] : []),
              ...message.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input ?? {} })),
            ],
          },
        ];
      case 'tool':
        return [
          {
            role: 'user',
            content: message.results.map((result) => ({
              type: 'tool_result',
              tool_use_id: result.callId,
              content: result.content,
              ...(result.isError ? { is_error: true } : {}),
            })),
          },
        ];
    }
  });
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: turns };
}

function anthropicTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
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
      messages: request.messages.filter((message) => message.role !== 'system').map((message) => ({ role: message.role, content: message.content })),
    };
    if (system.length > 0) body['system'] = system.join('\n\n');
    const answer = await callJson(
      {
        url,
        headers: { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
        body,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBytes: options.maxReplyBytes,
        signal: request.signal,
        secrets,
      },
      runtime,
    );
    return readAnthropicMessage(answer, url, secrets);
  }

  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };

  async function converse(request: ConverseRequest): Promise<ConverseResult> {
    const started = runtime.now();
    const conversation = anthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      model: options.model,
      max_tokens: options.maxTokens ?? request.maxTokens,
      temperature: Math.min(1, options.temperature ?? request.temperature),
      messages: conversation.messages,
      tools: anthropicTools(request.tools),
    };
    if (conversation.system !== undefined) body['system'] = conversation.system;
    const { value, attempts } = await withRetries(
      async () => {
        const answer = await callJson(
          {
            url,
            headers: { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
            body,
            timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            maxBytes: options.maxReplyBytes,
            signal: request.signal,
            secrets,
          },
          runtime,
        );
        return { completion: readAnthropicMessage(answer, url, secrets), toolCalls: readAnthropicToolCalls(answer, url, secrets) };
      },
      { policy, runtime, signal: request.signal },
    );
    return { ...value.completion, toolCalls: value.toolCalls, latencyMs: Math.max(0, runtime.now() - started), attempts };
  }

  return { ...budgetedAdapter(target, { maxTokens: options.maxTokens, retry: options.retry, runtime }, send), converse };
}
