import { z } from 'zod';
import type { TargetInfo, Usage } from '@holdfast/core/contract';
import { budgetedAdapter } from './completion.js';
import type { Completion } from './completion.js';
import { callJson, parseProviderBody } from './http-json.js';
import type { AdapterRuntime, GenerateRequest, ModelAdapter } from './model-adapter.js';
import { ProviderError, isRetryableStatus } from './provider-error.js';
import { redact, snippet } from './redact.js';
import type { RetryPolicy } from './retry.js';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.js';
import { DEFAULT_TIMEOUT_MS, withRuntime } from './runtime.js';
import { readToolInput } from './tool-calling.js';
import type { ConversationMessage, ConverseRequest, ConverseResult, ToolCallRequest, ToolSpec } from './tool-calling.js';

/**
 * Which field carries the output budget. OpenAI's reasoning models refuse `max_tokens` and want
 * `max_completion_tokens`; most other servers only know `max_tokens`.
 */
export type TokenParameter = 'max_tokens' | 'max_completion_tokens' | 'both';

export interface OpenAiCompatibleOptions {
  readonly id: string;
  readonly model: string;
  /** Up to and including the version segment, e.g. `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  readonly tokenParameter?: TokenParameter | undefined;
  /** Fixed by the target; overrides the request's. */
  readonly temperature?: number | undefined;
  /** Fixed by the target; overrides the request's. */
  readonly maxTokens?: number | undefined;
  readonly timeoutMs?: number | undefined;
  /** The answer's size cap in bytes (default DEFAULT_MAX_REPLY_BYTES): a bigger reply is cut off and recorded as too large. */
  readonly maxReplyBytes?: number | undefined;
  readonly retry?: Partial<RetryPolicy> | undefined;
  readonly runtime?: Partial<AdapterRuntime> | undefined;
}

const TextPartSchema = z.object({ type: z.string().optional(), text: z.string().optional() });

const ChatResponseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z
          .object({
            content: z.union([z.string(), z.array(TextPartSchema)]).nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            /** Structured outputs: the model declined to answer in the schema. */
            refusal: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  id: z.string().nullish(),
                  function: z.object({ name: z.string(), arguments: z.unknown().optional() }),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .optional(),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative().nullish(),
      completion_tokens: z.number().int().nonnegative().nullish(),
      completion_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
  // OpenRouter reports upstream failures as a 200 with an error object.
  error: z.object({ message: z.string().optional(), code: z.union([z.number(), z.string()]).optional() }).nullish(),
});

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

function readUsage(usage: z.infer<typeof ChatResponseSchema>['usage']): Usage {
  if (!usage) return {};
  return {
    ...(usage.prompt_tokens != null ? { inputTokens: usage.prompt_tokens } : {}),
    ...(usage.completion_tokens != null ? { outputTokens: usage.completion_tokens } : {}),
    ...(usage.completion_tokens_details?.reasoning_tokens != null ? { reasoningTokens: usage.completion_tokens_details.reasoning_tokens } : {}),
  };
}

function readContent(content: string | { text?: string | undefined }[] | null | undefined): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
  return '';
}

/** Reads a chat-completions body into a Completion, or says what is wrong with it. */
export function readChatCompletion(body: unknown, url: string, secrets: readonly (string | undefined)[]): Completion {
  const { choices, usage, error } = parseProviderBody(ChatResponseSchema, body, url, secrets);
  const choice = choices?.[0];
  if (choice === undefined) {
    const code = typeof error?.code === 'number' ? error.code : Number(error?.code);
    const why = error?.message ? `: ${snippet(redact(error.message, secrets), 200)}` : '';
    throw new ProviderError('E_PROVIDER_RESPONSE', `${url} answered without a choice${why}`, {
      retryable: Number.isInteger(code) && isRetryableStatus(code),
      ...(Number.isInteger(code) ? { status: code } : {}),
    });
  }
  const reasoning = choice.message?.reasoning_content ?? choice.message?.reasoning ?? undefined;
  const text = readContent(choice.message?.content);
  const refusal = choice.message?.refusal;
  // A structured-output refusal has no content: its sentence is the answer, marked as a refusal.
  if (text === '' && typeof refusal === 'string' && refusal !== '') {
    return { text: refusal, ...(reasoning ? { reasoning } : {}), usage: readUsage(usage), finishReason: 'refusal' };
  }
  return {
    text,
    ...(reasoning ? { reasoning } : {}),
    usage: readUsage(usage),
    ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
  };
}

/** Tool calls of a chat-completions body; a call without an id gets one from its position. */
export function readChatToolCalls(body: unknown, url: string, secrets: readonly (string | undefined)[]): ToolCallRequest[] {
  const { choices } = parseProviderBody(ChatResponseSchema, body, url, secrets);
  return (choices?.[0]?.message?.tool_calls ?? []).map((call, position) => ({
    id: call.id ?? `call_${position}`,
    name: call.function.name,
    ...readToolInput(call.function.arguments ?? ''),
  }));
}

/** The conversation as Chat Completions messages: tool calls on the assistant turn, one `tool` message per result. */
export function chatMessages(messages: readonly ConversationMessage[]): Record<string, unknown>[] {
  return messages.flatMap((message): Record<string, unknown>[] => {
    switch (message.role) {
      case 'system':
      case 'user':
        return [{ role: message.role, content: message.content }];
      case 'assistant':
        return [
          {
            role: 'assistant',
            content: message.content === '' && message.toolCalls.length > 0 ? null : message.content,
            ...(message.toolCalls.length > 0
              ? { tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.rawInput } })) }
              : {}),
          },
        ];
      case 'tool':
        return message.results.map((result) => ({ role: 'tool', tool_call_id: result.callId, content: result.content }));
    }
  });
}

function chatTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/** OpenAI chat completions over plain fetch: OpenAI, OpenRouter, Ollama, vLLM, llama.cpp. */
export function createOpenAiCompatibleAdapter(options: OpenAiCompatibleOptions): ModelAdapter {
  const runtime = withRuntime(options.runtime);
  const url = joinUrl(options.baseUrl, 'chat/completions');
  const tokenParameter = options.tokenParameter ?? 'max_tokens';
  const secrets = [options.apiKey];
  const target: TargetInfo = { id: options.id, provider: 'openai-compatible', model: options.model, baseUrl: options.baseUrl };

  async function send(request: GenerateRequest, maxTokens: number): Promise<Completion> {
    const body: Record<string, unknown> = {
      model: options.model,
      messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
      temperature: options.temperature ?? request.temperature,
    };
    if (tokenParameter !== 'max_completion_tokens') body['max_tokens'] = maxTokens;
    if (tokenParameter !== 'max_tokens') body['max_completion_tokens'] = maxTokens;
    if (request.responseSchema !== undefined) {
      body['response_format'] = {
        type: 'json_schema',
        json_schema: { name: request.responseSchema.name, strict: true, schema: request.responseSchema.schema },
      };
    }
    const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
    const answer = await callJson(
      { url, headers, body, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBytes: options.maxReplyBytes, signal: request.signal, secrets },
      runtime,
    );
    return readChatCompletion(answer, url, secrets);
  }

  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };

  async function converse(request: ConverseRequest): Promise<ConverseResult> {
    const started = runtime.now();
    const maxTokens = options.maxTokens ?? request.maxTokens;
    const body: Record<string, unknown> = {
      model: options.model,
      messages: chatMessages(request.messages),
      tools: chatTools(request.tools),
      temperature: options.temperature ?? request.temperature,
    };
    if (tokenParameter !== 'max_completion_tokens') body['max_tokens'] = maxTokens;
    if (tokenParameter !== 'max_tokens') body['max_completion_tokens'] = maxTokens;
    const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
    const { value, attempts } = await withRetries(
      async () => {
        const answer = await callJson(
          { url, headers, body, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBytes: options.maxReplyBytes, signal: request.signal, secrets },
          runtime,
        );
        return { completion: readChatCompletion(answer, url, secrets), toolCalls: readChatToolCalls(answer, url, secrets) };
      },
      { policy, runtime, signal: request.signal },
    );
    return { ...value.completion, toolCalls: value.toolCalls, latencyMs: Math.max(0, runtime.now() - started), attempts };
  }

  return { ...budgetedAdapter(target, { maxTokens: options.maxTokens, retry: options.retry, runtime }, send), converse };
}
