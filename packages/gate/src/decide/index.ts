// What leaves this room: the names other rooms of the gate, and its package index, import.
export { appendAudit, auditActionText, auditLogPath, formatAuditSummary, readAuditEntry, summarizeAudit } from './audit.js';
export type { AuditEntry } from './audit.js';
export { checkChangesWith } from './check-changes.js';
export type { ChangeCheck, ChangeFailure } from './check-changes.js';
export { checkoutAction } from './committed-links.js';
export { contentFailures, linkFailures } from './content-failures.js';
export {
  UNCONFIRMED,
  decideToolCall,
  decideTurnEnd,
  hasCommitOrderRules,
  nextSessionState,
  projectOnDisk,
  replayedRound,
  withFailedRuns,
  withPassedRuns,
} from './decide.js';
export type { CheckActions, Judgement } from './decide.js';
export { ALLOW, internalErrorReason, reasonOf, warningOf } from './hook-answer.js';
export type { HookAnswer } from './hook-answer.js';
export { findProjectRulebook } from './project-rulebook.js';
export { requiredCommandTest, rerunTimeoutMs } from './required-commands.js';
export { loadRulebookCached, shippedRulebookPath } from './rules-engine.js';
export type { RulesEngine } from './rules-engine.js';
export { protectedPlaces, tamperFindings } from './tamper.js';
export type { GateFinding } from './tamper.js';
export { GATE_AGENTS } from './tool-call.js';
export type { GateAgent, ToolCall } from './tool-call.js';
