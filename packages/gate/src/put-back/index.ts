// What leaves this room: the names other rooms of the gate, and its package index, import.
export { putBackGuardedAtCall } from './guarded-stat-check.js';
export { removeNewNestedRepositories } from './nested-repos.js';
export { changesOutsideCalls, ownPaths } from './outside-changes.js';
export type { OutsideChanges } from './outside-changes.js';
export { checkOutside, decideAtTurnEnd, loadFlagged, outsideAuditFields, outsideLines, saveFlagged, sessionWasChecked } from './outside-check.js';
export type { OutsideFinding } from './outside-check.js';
export { putBackRefsBetweenCalls, refPutBackLines, refsBetweenCallsReason } from './refs-between-calls.js';
export { checkAfterCall, protectedPathList } from './post-check.js';
export type { PostCheckOutcome, ProtectedPaths } from './post-check.js';
export { auditOutcome, revertReason } from './put-back-report.js';
export type { AuditBase } from './put-back-report.js';
export { finishUnfinishedCalls } from './unfinished-calls.js';
export { coverCheckedCalls, judgeSessionCalls } from './checked-calls.js';
