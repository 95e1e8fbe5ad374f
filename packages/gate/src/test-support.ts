export { claude, codex } from './test-support/payloads.js';
export { relaySchemaErrors } from './test-support/relay-workflow-schema.js';
export { commitFiles, git, gitTestEnv, projectRepo } from './test-support/git-repo.js';
export { useSealHomeForTests } from './state/state-seal.js';
