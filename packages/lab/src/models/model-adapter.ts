import type { HttpFetch } from './http-request.js';
import type { Arm, TargetInfo, Usage } from '@holdfast/core/contract';
import type { ConverseRequest, ConverseResult } from './tool-calling.js';

export type MessageRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  readonly role: MessageRole;
  readonly content: string;
}

/** Which recorded reply a call stands for; only the replay adapter reads it. */
export interface GenerationKey {
  readonly task: string;
  readonly rep: number;
  readonly arm: Arm;
}

export interface GenerateRequest {
  readonly messages: readonly ChatMessage[];
  /** Output budget. A target's own `maxTokens` setting wins over this. */
  readonly maxTokens: number;
  /** A target's own `temperature` setting wins over this. */
  readonly temperature: number;
  readonly signal?: AbortSignal;
  readonly key?: GenerationKey;
  /**
   * A JSON schema the reply must follow. Sent as the provider's native structured output where it
   * has one (OpenAI-compatible `response_format`); other adapters ignore it and the caller parses.
   */
  readonly responseSchema?: ResponseSchema;
}

export interface ResponseSchema {
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface GenerateResult {
  readonly text: string;
  readonly reasoning?: string;
  readonly usage: Usage;
  readonly finishReason?: string;
  /** Wall time of the whole call, retries and waits included. */
  readonly latencyMs: number;
  /** Calls made, counting retries (a budget retry counts too). */
  readonly attempts: number;
}

/** One model (or agent harness) behind one call. Implementations throw ProviderError. */
export interface ModelAdapter {
  readonly target: TargetInfo;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** One turn of a tool loop, through the provider's native tool calling; absent when the target has none. */
  converse?(request: ConverseRequest): Promise<ConverseResult>;
}

/** Everything an adapter takes from the outside world, so tests never wait or roll dice. */
export interface AdapterRuntime {
  readonly fetch: HttpFetch;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
  /** Uniform in [0, 1), for jitter. */
  readonly random: () => number;
  /** Told of every `Retry-After` wait before it starts: a queue worker pauses the target's rounds on every machine. */
  readonly onRetryAfter?: (ms: number) => void;
  /**
   * Starts one call's time limit: `expire` runs after `ms` unless the returned stop runs first.
   * Tests expire it when the call is known to be waiting, instead of racing a short real timer.
   */
  readonly deadline: (expire: () => void, ms: number) => () => void;
}
