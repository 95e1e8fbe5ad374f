import type { AgentAdapter } from '../agent-adapter.js';
import { QWEN_BEFORE_CALL } from './pre-tool-use.js';
import { QWEN_AFTER_CALL } from './post-tool-use.js';
import { QWEN_TURN_END } from './stop.js';

/**
 * Qwen Code: hooks in .qwen/settings.json with Claude Code's event names (PreToolUse, PostToolUse,
 * PostToolUseFailure, Stop) and a `tool_use_id` on each call. The event's `cwd` is the session's
 * working directory, which a shell's `cd` does not move.
 */
export const QWEN_CODE: AgentAdapter = {
  name: 'qwen-code',
  title: 'Qwen Code',
  steps: { PreToolUse: 'before-call', PostToolUse: 'after-call', PostToolUseFailure: 'after-call', Stop: 'turn-end' },
  unnamedStep: 'before-call',
  projectRoot: (cwd) => cwd,
  ...QWEN_BEFORE_CALL,
  ...QWEN_AFTER_CALL,
  ...QWEN_TURN_END,
};
