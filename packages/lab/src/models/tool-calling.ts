import type { Usage } from '@holdfast/core/contract';
import { safeParseJson } from '@holdfast/core/contract';

/** A tool the model may call: a name, what it does, and its input as a JSON Schema object. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * One tool call the model asked for. `input` is the parsed arguments; when the provider sent
 * arguments that are not a JSON object, `input` is undefined and `inputError` says why, so the
 * caller can answer the model with an error instead of guessing.
 */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>> | undefined;
  readonly inputError?: string;
  /** The arguments as the provider sent them (a JSON string), for the record and for replay. */
  readonly rawInput: string;
}

export interface ToolResultMessage {
  readonly callId: string;
  readonly name: string;
  readonly content: string;
  readonly isError: boolean;
}

/** A conversation in provider-neutral form; each adapter writes it in its own wire format. */
export type ConversationMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly ToolCallRequest[] }
  | { readonly role: 'tool'; readonly results: readonly ToolResultMessage[] };

export interface ConverseRequest {
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly ToolSpec[];
  readonly maxTokens: number;
  readonly temperature: number;
  readonly signal?: AbortSignal;
}

/** One model turn: text, and the tool calls it asked for (none: the model is done). */
export interface ConverseResult {
  readonly text: string;
  readonly reasoning?: string;
  readonly toolCalls: readonly ToolCallRequest[];
  readonly usage: Usage;
  readonly finishReason?: string;
  readonly latencyMs: number;
  readonly attempts: number;
}

/** A model that can take part in a tool loop through the provider's native tool calling. */
export interface ToolCallingModel {
  converse(request: ConverseRequest): Promise<ConverseResult>;
}

/** Provider arguments read as an object: a JSON string (OpenAI), or an object already (Anthropic, some local servers). */
export function readToolInput(raw: unknown): { input: Record<string, unknown> | undefined; inputError?: string; rawInput: string } {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return { input: raw as Record<string, unknown>, rawInput: JSON.stringify(raw) };
  if (typeof raw !== 'string') return { input: undefined, inputError: 'the arguments are not a JSON object', rawInput: JSON.stringify(raw) ?? '' };
  if (raw.trim() === '') return { input: {}, rawInput: raw };
  const json = safeParseJson(raw);
  if (!json.ok) return { input: undefined, inputError: 'the arguments are not valid JSON', rawInput: raw };
  const parsed = json.value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { input: undefined, inputError: 'the arguments are not a JSON object', rawInput: raw };
  }
  return { input: parsed as Record<string, unknown>, rawInput: raw };
}
