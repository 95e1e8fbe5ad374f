export { claude, codex } from './test-support/payloads.js';
export { relaySchemaErrors } from './test-support/relay-workflow-schema.js';
