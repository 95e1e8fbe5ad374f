export type {
  AdapterRuntime,
  ChatMessage,
  GenerateRequest,
  GenerateResult,
  GenerationKey,
  MessageRole,
  ModelAdapter,
  ResponseSchema,
} from './model-adapter.js';
export { ProviderError, isRetryableStatus } from './provider-error.js';
export { DEFAULT_MAX_REPLY_BYTES, REPLY_TOO_LARGE, isReplyTooLarge } from './reply-cap.js';
export type { ProviderErrorOptions } from './provider-error.js';
export { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, withRetries } from './retry.js';
export type { RetryPolicy } from './retry.js';
export { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, DEFAULT_TIMEOUT_MS, defaultRuntime } from './runtime.js';
export { expandedBudget, ranOutThinking } from './completion.js';
export type { Completion } from './completion.js';
export { createOpenAiCompatibleAdapter, readChatCompletion } from './openai-compatible.js';
export { readToolInput } from './tool-calling.js';
export type { ConversationMessage, ConverseRequest, ConverseResult, ToolCallRequest, ToolCallingModel, ToolResultMessage, ToolSpec } from './tool-calling.js';
export type { OpenAiCompatibleOptions, TokenParameter } from './openai-compatible.js';
export { ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, createAnthropicAdapter, readAnthropicMessage } from './anthropic.js';
export type { AnthropicOptions } from './anthropic.js';
export { DEFAULT_OUTPUT_LIMIT_BYTES, createCommandAdapter, renderPrompt } from './command-adapter.js';
export type { CommandAdapterOptions } from './command-adapter.js';
export { createReplayAdapter } from './replay-adapter.js';
export type { ReplayOptions } from './replay-adapter.js';
export { looksSecret, scrubEnv } from './scrub-env.js';
export { targetSecrets } from './target-secrets.js';
export { redact } from './redact.js';
export {
  AgentTargetSchema,
  ClaudeCodeTargetSchema,
  CodexTargetSchema,
  DEFAULT_AGENT_MAX_TURNS,
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_TARGETS,
  HARNESS_PROVIDERS,
  PROMPT_PLACEHOLDER,
  isHarnessTarget,
  OLLAMA_BASE_URL,
  TARGETS_CONFIG_FILE,
  TargetConfigSchema,
  TargetsConfigFileSchema,
  loadTargetsConfig,
  parseTargetsConfig,
  safeParseTargetsConfig,
  toTargetInfo,
} from './targets-config.js';
export type {
  AgentTarget,
  AnthropicTarget,
  ClaudeCodeTarget,
  CodexTarget,
  HarnessTarget,
  CommandTarget,
  OpenAiCompatibleTarget,
  SafeParseTargetsConfigResult,
  TargetConfig,
  TargetsConfig,
} from './targets-config.js';
export { ENV_FILE, loadDotEnv } from './env-file.js';
export { createAdapter } from './create-adapter.js';
export type { CreateAdapterOptions } from './create-adapter.js';
export { targetModes } from './target-modes.js';
export type { TargetMode } from './target-modes.js';
export { callJson } from './http-json.js';
export { withRuntime } from './runtime.js';
