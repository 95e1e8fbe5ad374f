import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAgentClient } from './agent-clients.js';
import { runAgentProcess, tail } from './agent-process.js';
import type { AgentRun, RunAgentOptions } from './agent-run.js';

/** A key of the right shape and no value: the model server is ours. */
export const FAKE_COPILOT_PROVIDER_KEY = 'sk-holdfast-scripted-model-not-a-real-key';
/** A model Copilot CLI knows (its limits and agent settings come from the name); the scripted server answers any. */
export const COPILOT_MODEL = 'gpt-4.1';

/**
 * Runs GitHub Copilot CLI headless in `cwd` with no GitHub login: `COPILOT_OFFLINE=true` (no network
 * but the provider: no authentication, telemetry, web tools or auto-update) and a custom provider
 * (BYOK) speaking OpenAI chat completions at COPILOT_PROVIDER_BASE_URL; `-p PROMPT --allow-all
 * --trust-folder` (every tool approved, the project's `.github/hooks/` trusted for this session).
 * Its report is text only: `report` stays undefined.
 */
export async function runCopilot(options: RunAgentOptions): Promise<AgentRun> {
  const bin = options.bin ?? (await ensureAgentClient('copilot'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-copilot-home-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: options.baseUrl,
    COPILOT_PROVIDER_API_KEY: FAKE_COPILOT_PROVIDER_KEY,
    COPILOT_MODEL,
    ...options.env,
  };
  const args = ['-p', options.prompt, '--allow-all', '--trust-folder', '--disable-client-telemetry', ...(options.args ?? [])];
  const outcome = await runAgentProcess({ command: bin, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs });
  return { client: 'copilot', ...outcome, report: undefined, stdoutTail: tail(outcome.stdout), stderrTail: tail(outcome.stderr), home };
}
