export { memoryIo } from './command/test-support/memory-io.js';
export type { MemoryIo } from './command/test-support/memory-io.js';
export { labelledCorpus } from './rules/secrets/test-support/secret-corpus.js';
export { defaultRulebook } from './rules/test-support/rulebooks.js';
export { ADVERSARIAL } from './reply/test-support/adversarial-replies.js';
