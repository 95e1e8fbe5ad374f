// The harness room: how each agent harness (Claude Code, Codex, Gemini CLI, a generic CLI agent) is
// found, started, confined and read, one folder per harness. Agent mode, pressure's live half,
// `holdfast targets` and the tests enter it here, and only here.
export { AGENT_CLIENTS, NODE_LINES, agentCacheRoot, agentClientFolder, ensureAgentClient, ensureAgentClients, ensureNodeLine } from './clients.js';
export type { AgentClientName } from './clients.js';
export type { AgentHarness, HarnessProvider } from './harness.js';
export { harnessOf } from './harnesses.js';
export { findHarness } from './find-harness.js';
export { probeTarget } from './probe-target.js';
export type { HarnessExit } from './process.js';
export type { HarnessReport } from './report.js';
export { confineHarness, installationOf, pathsIn } from './confinement.js';
export { runHarness } from './run-harness.js';
export type { HarnessRun } from './run-harness.js';
export { trustCodexHooks } from './codex/index.js';
