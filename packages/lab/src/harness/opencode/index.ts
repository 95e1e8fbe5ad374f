import type { HarnessDefinition } from '../harness.js';
import { AGENT_CLIENTS } from '../clients.js';
import { prepareOpenCodeHome } from './home.js';
import { readOpenCodeResult } from './report.js';

export { readOpenCodeResult } from './report.js';

/**
 * OpenCode: `run --format json [--model provider/model] TICKET` (a headless run approves every tool
 * call: holdfast's plugin is what refuses), its user config written into the run's HOME first. A
 * target's `model` in OpenCode's spelling (`provider/model`) goes to `--model`; a bare name (`gpt-4.1`,
 * the label other harnesses share in a comparison) is a label only, and OpenCode's config names the
 * model. It
 * reads AGENTS.md; its gate is the plugin `.opencode/plugin/holdfast-gate.js`. A plugin cannot hold
 * the turn at its end (`session.idle` is told, it cannot answer), so a module left without its test
 * is caught by the pre-commit hook or in the final state, never sent back to the model.
 */
export const OPENCODE: HarnessDefinition<'opencode'> = {
  provider: 'opencode',
  program: 'opencode',
  client: AGENT_CLIENTS.opencode,
  tested:
    'end to end, offline: the real OpenCode 1.18.33 on a scripted OpenAI chat-completions provider on 127.0.0.1, told and held (test/e2e/agent-mode-clis.test.ts)',
  rulesFiles: ['AGENTS.md'],
  hookSettings: '.opencode/plugin/holdfast-gate.js',
  commandLine: (target, context) => ({
    args: ['run', '--format', 'json', ...(target.model?.includes('/') === true ? ['--model', target.model] : []), ...target.args, context.prompt],
  }),
  environment: () => ({ OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' }),
  prepare: (options) => prepareOpenCodeHome({ env: options.env, maxTurns: options.target.maxTurns }),
  createReader: () => ({ push: () => undefined, turns: () => undefined, report: readOpenCodeResult }),
};
