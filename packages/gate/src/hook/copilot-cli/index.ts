import type { AgentAdapter } from '../agent-adapter.js';
import { COPILOT_BEFORE_CALL } from './pre-tool-use.js';
import { COPILOT_AFTER_CALL } from './post-tool-use.js';
import { COPILOT_TURN_END } from './stop.js';
import { readCopilotPayload } from './payload.js';

/**
 * GitHub Copilot CLI: hooks in .github/hooks/*.json (preToolUse, postToolUse, postToolUseFailure,
 * agentStop), camelCase payloads that name no event and carry no id per call (payload.ts reads them
 * into the flow's names). The event's `cwd` is the project root the session started in.
 */
export const COPILOT_CLI: AgentAdapter = {
  name: 'copilot-cli',
  title: 'Copilot CLI',
  steps: { preToolUse: 'before-call', postToolUse: 'after-call', postToolUseFailure: 'after-call', agentStop: 'turn-end' },
  unnamedStep: 'before-call',
  projectRoot: (cwd) => cwd,
  readPayload: readCopilotPayload,
  ...COPILOT_BEFORE_CALL,
  ...COPILOT_AFTER_CALL,
  ...COPILOT_TURN_END,
};
