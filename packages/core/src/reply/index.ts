export { parseReply } from './parse-reply.js';
export { describeAction } from './summarize.js';
export { validateActions } from './validate-actions.js';
export type { ActionsResult } from './validate-actions.js';
export { findFencedBlocks } from './fences.js';
export { scanBracketSpans } from './scan.js';
export { isCutOff, truncatedReply } from './cut-off.js';
export { readProseRefusal } from './prose-refusal.js';
