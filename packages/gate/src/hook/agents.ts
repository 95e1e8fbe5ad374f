import type { AgentAdapter, AgentHook } from './agent-adapter.js';
import { CLAUDE_CODE } from './claude-code/index.js';
import { CODEX } from './codex/index.js';
import { GEMINI_CLI } from './gemini-cli/index.js';
import { QWEN_CODE } from './qwen-code/index.js';
import { OPENCODE } from './opencode/index.js';
import { COPILOT_CLI } from './copilot-cli/index.js';

/** Every agent CLI the hook speaks to, by the name `holdfast hook <agent>` takes. A new agent is a folder and a line here. */
export const AGENT_ADAPTERS: Readonly<Record<AgentHook, AgentAdapter>> = {
  'claude-code': CLAUDE_CODE,
  codex: CODEX,
  'gemini-cli': GEMINI_CLI,
  'qwen-code': QWEN_CODE,
  opencode: OPENCODE,
  'copilot-cli': COPILOT_CLI,
};
