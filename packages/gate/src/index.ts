/**
 * The gate's public face: what the lab, the CLI and the bench import. Each room lists what leaves it in its own
 * index.ts; the package README says what lives in each room.
 */
export {
  auditLogPath,
  decideToolCall,
  decideTurnEnd,
  findProjectRulebook,
  formatAuditSummary,
  nextSessionState,
  projectOnDisk,
  readAuditEntry,
  summarizeAudit,
  warningOf,
  withFailedRuns,
} from './decide/index.js';
export type { ChangeCheck, Judgement } from './decide/index.js';
export {
  BUBBLEWRAP_HINT,
  confinementArgs,
  credentialPlaces,
  findBubblewrap,
  findProgram,
  holdfastInstallation,
  hookEntryPath,
  inside,
  installationOf,
} from './exec/index.js';
export type { ConfinementPolicy } from './exec/index.js';
export { gitRoot, workTreeChanges } from './git/index.js';
export { COLLECT_STEP, deadlineMs, HOOK_TIMEOUT_SECONDS, installGate, readCodexView, rulebookToFlowSpec, trustHoldfastHooks } from './install/index.js';
export type { CodexView, InstallChange } from './install/index.js';
export { checkAfterCall } from './put-back/index.js';
export { FRESH_SESSION, beforeShellCall, findSnapshotRecord, sessionMirrorFolder } from './state/index.js';
export type { SessionState } from './state/index.js';
