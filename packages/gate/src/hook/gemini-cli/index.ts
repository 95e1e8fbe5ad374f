import type { AgentAdapter } from '../agent-adapter.js';
import { GEMINI_BEFORE_CALL } from './pre-tool-use.js';
import { GEMINI_AFTER_CALL } from './post-tool-use.js';
import { GEMINI_TURN_END } from './stop.js';

/**
 * Gemini CLI (and Qwen Code, its fork): hooks in .gemini/settings.json; BeforeTool, AfterTool,
 * AfterAgent. No `tool_use_id`: an AfterTool is paired with the session's open snapshot (its tool
 * calls that change files run one at a time). The event's `cwd` is the project root.
 */
export const GEMINI_CLI: AgentAdapter = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  steps: { BeforeTool: 'before-call', AfterTool: 'after-call', AfterAgent: 'turn-end' },
  unnamedStep: 'before-call',
  projectRoot: (cwd) => cwd,
  ...GEMINI_BEFORE_CALL,
  ...GEMINI_AFTER_CALL,
  ...GEMINI_TURN_END,
};
