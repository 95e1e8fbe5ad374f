import type { AgentAdapter } from '../agent-adapter.js';
import { CODEX_BEFORE_CALL } from './pre-tool-use.js';
import { CODEX_AFTER_CALL } from './post-tool-use.js';
import { CODEX_TURN_END } from './stop.js';

/** Codex: hooks in .codex/hooks.json (trusted by hash in the user's config); PreToolUse, PostToolUse, Stop. */
export const CODEX: AgentAdapter = {
  name: 'codex',
  title: 'Codex',
  steps: { PreToolUse: 'before-call', PostToolUse: 'after-call', Stop: 'turn-end' },
  unnamedStep: 'before-call',
  projectRoot: (cwd) => cwd,
  ...CODEX_BEFORE_CALL,
  ...CODEX_AFTER_CALL,
  ...CODEX_TURN_END,
};
