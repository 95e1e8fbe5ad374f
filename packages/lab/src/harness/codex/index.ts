import { join } from 'node:path';
import type { HarnessDefinition } from '../harness.js';
import { AGENT_CLIENTS } from '../clients.js';
import { prepareCodexHome } from './home.js';
import { createCodexEventReader } from './report.js';

export { trustCodexHooks } from './hook-trust.js';
export { createCodexEventReader } from './report.js';

/**
 * Codex: `exec --json` in the repository with approvals and its own sandbox off (holdfast's
 * repository is the sandbox), the ticket last, its own CODEX_HOME under the run's HOME, prepared
 * (the project trusted, its hooks trusted) before it starts. It reads AGENTS.md; its hooks live in
 * `.codex/hooks.json`.
 */
export const CODEX: HarnessDefinition<'codex'> = {
  provider: 'codex',
  program: 'codex',
  client: AGENT_CLIENTS.codex,
  tested: 'end to end, offline: the real Codex 0.171.0 on a scripted OpenAI Responses API on 127.0.0.1, told and held (test/e2e/agent-mode.test.ts)',
  rulesFiles: ['AGENTS.md'],
  hookSettings: '.codex/hooks.json',
  commandLine: (target, context) => ({
    args: [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--cd',
      context.workDir,
      ...(target.model !== undefined ? ['--model', target.model] : []),
      ...target.args,
      context.prompt,
    ],
  }),
  environment: (homeDir) => ({ CODEX_HOME: join(homeDir, '.codex') }),
  prepare: prepareCodexHome,
  createReader: createCodexEventReader,
};
