export { buildMessages } from './experiment/prompt.js';
export { formatRate } from './report/format-rate.js';
export { RATE_DEFINITIONS } from './report/rate-definitions.js';
export type { RateDefinitionKey } from './report/rate-definitions.js';
export { readRunFileLine, safeParseRunFileText } from './store/run-file-text.js';
export { findRound, initialRunState, reduceRunEvents } from './store/run-state.js';
export type { ApprovalState, RoundState, RunState } from './store/run-state.js';
export { computeTotals } from './store/totals.js';
export { HEADLINE_DEFINITIONS, headlines } from './report/headline.js';
