import { ensureAgentClients } from '@holdfast/lab/harnesses';

/**
 * Vitest global setup: installs the real Claude Code and Codex the end-to-end tests drive into the
 * agent cache (~/.cache/holdfast/agents, or HOLDFAST_AGENT_CACHE), once per machine. They are not
 * project dependencies (large native binaries). Without a registry this fails with what to install;
 * it never skips the tests quietly.
 */
export default async function setup(): Promise<void> {
  await ensureAgentClients();
}
