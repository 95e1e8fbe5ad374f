export { createAgentRounds } from './agent-rounds.js';
export type { AgentRounds, AgentRoundsOptions } from './agent-rounds.js';
export { prepareArmRepo, rulesFilesFor } from './arm-repo.js';
