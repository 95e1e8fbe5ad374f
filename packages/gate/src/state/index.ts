// What leaves this room: the names other rooms of the gate, and its package index, import.
export { consumeAllowance } from './allowance.js';
export { betweenCallsReason, loadGuardedBaseline, putBackGuardedAtTurnEnd, putBackGuardedBetweenCalls, saveGuardedBaseline } from './guarded-baseline.js';
export type { BetweenCalls } from './guarded-baseline.js';
export { guardedChanges, tamper } from './guarded-changes.js';
export type { BrokenRule } from './guarded-changes.js';
export { GUARDED_RACY_MS, captureGuarded, currentBlob, restoreGuarded, statGuarded } from './guarded-files.js';
export type { GuardedFile, GuardedFiles } from './guarded-files.js';
export { checkIgnoreRules, filesHiddenByNewRules, ignoredNow } from './hidden-files.js';
export { keepPatternAnswersOf } from './pattern-answers.js';
export { baselineState, loadRefBaseline, noteRefUpdates, saveRefBaseline } from './ref-baseline.js';
export type { RefBaseline } from './ref-baseline.js';
export {
  commitChanges,
  commitPaths,
  locateRepo,
  moveRefBack,
  movedRefs,
  putHeadBack,
  readRepoState,
  readReplaceRefs,
  rootRelative,
  unstageRefused,
} from './repo-state.js';
export type { MovedRef, RefusedPath, RepoState } from './repo-state.js';
export { journalReverts, recentReverts, revertKey } from './revert-journal.js';
export type { GateRevert } from './revert-journal.js';
export { readSealedState, removeSealedState, sealedStateExists, sessionFilePlace, writeSealedState } from './sealed-state-file.js';
export type { SealedPlace } from './sealed-state-file.js';
export {
  changesBehindSessionRules,
  filesBehindSessionRules,
  followJudgement,
  loadSessionIgnores,
  noteIgnoreFileWrites,
  noteWritesAllowedByPerson,
  restoreHidden,
  saveSessionIgnores,
} from './session-ignores.js';
export type { SessionIgnores } from './session-ignores.js';
export {
  FRESH_SESSION,
  HOLDFAST_DIR,
  ensureSessionMirrorFolder,
  latestSessionState,
  loadSessionState,
  peekSessionState,
  saveSessionState,
  sessionMirrorFolder,
  sessionStateOf,
  withRun,
} from './session-state.js';
export type { SessionRun, SessionState } from './session-state.js';
export {
  beforeReadOnlyShellCall,
  beforeShellCall,
  callWasCovered,
  checkedCallIndex,
  findSnapshotRecord,
  openAgentCalls,
  sessionCalls,
  takeSnapshotAfter,
  unfinishedCalls,
} from './snapshot.js';
export type { OpenRecord, Snapshot, SnapshotAfter, SnapshotRecord } from './snapshot.js';
export {
  ensureStore,
  indexPaths,
  indexTree,
  followPutBack,
  priorIndexPath,
  removeCreated,
  restoreFromTree,
  snapshotIndex,
  snapshotStorePath,
  treeChanges,
  treePathsAround,
  workTreeTreeAside,
} from './snapshot-store.js';
export type { AddedIndex, TreeChange, TreePair } from './snapshot-store.js';
export { sealText, unsealText } from './state-seal.js';
export { beforeCallIdentity, stagedTreeIdentity, storeTreeIdentity, treeIdentity, workTreeIdentity } from './tree-identity.js';
