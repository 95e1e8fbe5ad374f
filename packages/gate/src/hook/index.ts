// What leaves this room: the names other rooms of the gate, and its package index, import.
export { CLAUDE_FILE_TOOLS, CLAUDE_READ_ONLY_TOOLS } from './claude-code/pre-tool-use.js';
export { everyToolBut } from './tool-kinds.js';
export { GEMINI_FILE_TOOLS, GEMINI_READ_ONLY_TOOLS } from './gemini-cli/pre-tool-use.js';
export { QWEN_FILE_TOOLS, QWEN_READ_ONLY_TOOLS } from './qwen-code/pre-tool-use.js';
export { OPENCODE_FILE_TOOLS, OPENCODE_READ_ONLY_TOOLS } from './opencode/pre-tool-use.js';
export { COPILOT_EVENTS } from './copilot-cli/payload.js';
export type { AgentHook } from './agent-adapter.js';
