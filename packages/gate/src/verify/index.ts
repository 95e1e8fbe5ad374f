// What leaves this room: the names other rooms of the gate, and its package index, import.
export { DEFAULT_VERIFY_RULEBOOK, verifyRange } from './verify.js';
export type { VerifyFinding, VerifyReport } from './verify.js';
export { verifyJunit } from './verify-junit.js';
export { verifyMarkdown } from './verify-markdown.js';
export { verifySarif } from './verify-sarif.js';
