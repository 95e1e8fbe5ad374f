export {
  AGENT_CLIENTS,
  AgentClientError,
  NODE_LINES,
  agentCacheRoot,
  agentClientFolder,
  ensureAgentClient,
  ensureAgentClients,
  ensureNodeLine,
} from './agent-clients.js';
export type { AgentClientName, AgentClientSpec, EnsureOptions, NodeLineName } from './agent-clients.js';
export type { AgentReport, AgentRun, RunAgentOptions } from './agent-run.js';
export { CodexHookTrustError, trustCodexHooks } from './codex-hook-trust.js';
export type { CodexHookEntry } from './codex-hook-trust.js';
export { FAKE_ANTHROPIC_KEY, readClaudeReport, runClaudeCode } from './run-claude-code.js';
export { FAKE_GEMINI_KEY, readGeminiReport, runGeminiCli } from './run-gemini-cli.js';
export type { GeminiRunOptions } from './run-gemini-cli.js';
export { COPILOT_MODEL, FAKE_COPILOT_PROVIDER_KEY, runCopilot } from './run-copilot.js';
export { FAKE_QWEN_OPENAI_KEY, QWEN_MODEL, readQwenReport, runQwenCode } from './run-qwen-code.js';
export type { QwenRunOptions } from './run-qwen-code.js';
export { CODEX_MODEL, FAKE_OPENAI_KEY, codexConfig, readCodexReport, runCodex } from './run-codex.js';
export type { CodexRunOptions, CodexSandbox } from './run-codex.js';
