import type { HarnessDefinition } from '../harness.js';
import { AGENT_CLIENTS } from '../clients.js';
import { createCopilotReader } from './report.js';

/**
 * GitHub Copilot CLI: `-p TICKET --allow-all --trust-folder --output-format json` (every tool
 * approved, the project's `.github/hooks/` trusted for the session: the hook is what refuses). Its
 * model is the person's: a GitHub login, or offline with a provider of their own
 * (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_API_KEY, COPILOT_MODEL passed
 * through). It reads AGENTS.md. It has no turn cap of its own: its JSON events are counted as they
 * stream and the run's cap stops it.
 */
export const COPILOT_CLI: HarnessDefinition<'copilot-cli'> = {
  provider: 'copilot-cli',
  program: 'copilot',
  client: AGENT_CLIENTS.copilot,
  tested:
    'end to end, offline: the real Copilot CLI 1.0.102 with no GitHub login on a scripted OpenAI chat-completions provider on 127.0.0.1, told and held (test/e2e/agent-mode-clis.test.ts)',
  rulesFiles: ['AGENTS.md'],
  hookSettings: '.github/hooks/holdfast.json',
  commandLine: (target, context) => ({
    args: [
      '-p',
      context.prompt,
      '--allow-all',
      '--trust-folder',
      '--disable-client-telemetry',
      '--output-format',
      'json',
      ...(target.model !== undefined ? ['--model', target.model] : []),
      ...target.args,
    ],
  }),
  createReader: createCopilotReader,
};
