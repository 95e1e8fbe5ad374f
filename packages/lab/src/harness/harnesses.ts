import type { HarnessDefinition, HarnessProvider } from './harness.js';
import { GENERIC_AGENT } from './agent/index.js';
import { CLAUDE_CODE } from './claude-code/index.js';
import { CODEX } from './codex/index.js';
import { GEMINI_CLI } from './gemini-cli/index.js';
import { QWEN_CODE } from './qwen-code/index.js';
import { OPENCODE } from './opencode/index.js';
import { COPILOT_CLI } from './copilot-cli/index.js';

/** Every harness a target can name, one folder each; the compiler holds the table complete. */
const HARNESSES: { readonly [P in HarnessProvider]: HarnessDefinition<P> } = {
  'claude-code': CLAUDE_CODE,
  codex: CODEX,
  'gemini-cli': GEMINI_CLI,
  'qwen-code': QWEN_CODE,
  opencode: OPENCODE,
  'copilot-cli': COPILOT_CLI,
  agent: GENERIC_AGENT,
};

export function harnessOf(provider: HarnessProvider): HarnessDefinition {
  // Each entry takes its own provider's target; a caller passes the target it looked the entry up by.
  return HARNESSES[provider] as HarnessDefinition;
}
