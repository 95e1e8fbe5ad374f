// The pure half of the store, with no node: imports, for the web app's bundle.
export { PersistentList } from './persistent-list.js';
export { parseRunFileText, readRunFileLine, safeParseRunFileText } from './run-file-text.js';
export type { RunFileContents, RunFileLine, RunFileProblem } from './run-file-text.js';
export { findRound, initialRunState, reduceRunEvent, reduceRunEvents } from './run-state.js';
export type { ApprovalState, RoundState, RunStartInfo, RunState } from './run-state.js';
export { computeTotals } from './totals.js';
export type { TotalsInput } from './totals.js';
