import type { HarnessDefinition } from '../harness.js';
import { AGENT_CLIENTS } from '../clients.js';
import { prepareGeminiHome } from './home.js';
import { createGeminiReader } from './report.js';

export { readGeminiResult } from './report.js';

/**
 * Gemini CLI: `-p TICKET --yolo --output-format json` (every tool call approved: the hook is what
 * refuses), the project trusted (GEMINI_CLI_TRUST_WORKSPACE: it runs a project's hooks only in a
 * trusted folder), its user settings written into the run's HOME first. It reads GEMINI.md; its hooks
 * live in `.gemini/settings.json`.
 */
export const GEMINI_CLI: HarnessDefinition<'gemini-cli'> = {
  provider: 'gemini-cli',
  program: 'gemini',
  client: AGENT_CLIENTS['gemini-cli'],
  tested: 'end to end, offline: the real Gemini CLI 0.61.0 on a scripted Gemini API on 127.0.0.1, told and held (test/e2e/agent-mode-clis.test.ts)',
  rulesFiles: ['GEMINI.md'],
  hookSettings: '.gemini/settings.json',
  commandLine: (target, context) => ({
    args: ['-p', context.prompt, '--yolo', '--output-format', 'json', ...(target.model !== undefined ? ['--model', target.model] : []), ...target.args],
  }),
  environment: () => ({ GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
  prepare: (options) => prepareGeminiHome({ env: options.env, maxTurns: options.target.maxTurns }),
  createReader: createGeminiReader,
};
