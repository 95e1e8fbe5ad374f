export { formatRate } from './format-rate.js';
export { formatTotalsMarkdown, formatTotalsTable } from './format-totals.js';
export { formatJunit } from './format-junit.js';
export { RATE_DEFINITIONS } from './rate-definitions.js';
export type { RateDefinitionKey } from './rate-definitions.js';
export { formatJudgedMarkdown, formatJudgedTable, JUDGED_LEGEND, judgedRows, judgedTotals } from './format-judged.js';
export type { JudgedRow, JudgedTotals } from './format-judged.js';
export { failedTargets } from './failed-targets.js';
export type { FailedTarget } from './failed-targets.js';
