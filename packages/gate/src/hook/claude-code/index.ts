import type { AgentAdapter } from '../agent-adapter.js';
import { CLAUDE_CODE_BEFORE_CALL } from './pre-tool-use.js';
import { CLAUDE_CODE_AFTER_CALL } from './post-tool-use.js';
import { CLAUDE_CODE_TURN_END } from './stop.js';

/** Claude Code: hooks in .claude/settings.json; PreToolUse, PostToolUse (and PostToolUseFailure), Stop. */
export const CLAUDE_CODE: AgentAdapter = {
  name: 'claude-code',
  title: 'Claude Code',
  steps: { PreToolUse: 'before-call', PostToolUse: 'after-call', PostToolUseFailure: 'after-call', Stop: 'turn-end' },
  unnamedStep: 'before-call',
  // The Bash tool's cwd moves with `cd`; the hook gets the project root in CLAUDE_PROJECT_DIR.
  projectRoot: (cwd, env) => (env.CLAUDE_PROJECT_DIR !== undefined && env.CLAUDE_PROJECT_DIR !== '' ? env.CLAUDE_PROJECT_DIR : cwd),
  ...CLAUDE_CODE_BEFORE_CALL,
  ...CLAUDE_CODE_AFTER_CALL,
  ...CLAUDE_CODE_TURN_END,
};
