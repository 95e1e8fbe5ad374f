export { createAgentRounds } from './agent-rounds.js';
export type { AgentHarness, AgentRounds, AgentRoundsOptions } from './agent-rounds.js';
