import type { AgentAdapter } from '../agent-adapter.js';
import { OPENCODE_BEFORE_CALL } from './pre-tool-use.js';
import { OPENCODE_AFTER_CALL } from './post-tool-use.js';
import { OPENCODE_TURN_END } from './stop.js';

/**
 * OpenCode: no hook commands, plugins. holdfast's plugin (`.opencode/plugin/holdfast-gate.js`,
 * written by install/opencode-plugin.ts) hands each `tool.execute.before` / `tool.execute.after` to
 * this hook in the envelope the other adapters read (`hook_event_name`, `session_id`, `cwd` the
 * plugin's directory, `tool_name`, `tool_input`, `tool_use_id`) and turns the answer into a thrown
 * Error (a refusal) or text appended to the tool's output.
 */
export const OPENCODE: AgentAdapter = {
  name: 'opencode',
  title: 'OpenCode',
  steps: { 'tool.execute.before': 'before-call', 'tool.execute.after': 'after-call', 'session.idle': 'turn-end' },
  unnamedStep: 'before-call',
  projectRoot: (cwd) => cwd,
  ...OPENCODE_BEFORE_CALL,
  ...OPENCODE_AFTER_CALL,
  ...OPENCODE_TURN_END,
};
