export { claude, claudeBashPassed, codex } from './test-support/payloads.js';
export { gateMain } from './test-support/gate-main.js';
export { relaySchemaErrors } from './test-support/relay-workflow-schema.js';
export { commitFiles, git, gitTestEnv, projectRepo, writeFiles } from './test-support/git-repo.js';
export { useSealHomeForTests } from './state/state-seal.js';
