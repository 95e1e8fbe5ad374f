import { ensureAgentClients, ensureNodeLine } from '@holdfast/lab/harness';

/**
 * Vitest global setup: installs the real Claude Code, Codex, Gemini CLI, Qwen Code, OpenCode and Copilot CLI the end-to-end tests drive (and Node 24) into the
 * agent cache (~/.cache/holdfast/agents, or HOLDFAST_AGENT_CACHE), once per machine. They are not
 * project dependencies (large native binaries). Without a registry this fails with what to install;
 * it never skips the tests quietly.
 */
export default async function setup(): Promise<void> {
  await ensureAgentClients();
  // Node 24: Qwen Code runs on it, and so do about half of every real client's gate sessions (nodeOfLine), the hook's real-process tests and a CLI run.
  await ensureNodeLine('node-24');
  // Node 22: the bundled hook and a CLI verb run on it too (test/e2e/node-24.test.ts).
  await ensureNodeLine('node-22');
  // Node 20, CI's line, when the tests run on another: the Node 20 groups run on it (nodeOfLine).
  if (Number(process.versions.node.split('.')[0]) !== 20) await ensureNodeLine('node-20');
}
