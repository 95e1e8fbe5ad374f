// What leaves this room: the names other rooms of the gate, and its package index, import.
export { CLAUDE_FILE_TOOLS, CLAUDE_READ_ONLY_TOOLS } from './claude-code/pre-tool-use.js';
export { everyToolBut } from './tool-kinds.js';
