// OpenCode: gated (`holdfast install opencode`) and driven end to end by the tests on a scripted
// model (test-support/scripted-run.ts), not yet an agent-mode target, so only its reader lives here.
export { readOpenCodeResult } from './report.js';
