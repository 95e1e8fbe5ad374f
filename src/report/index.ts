export { formatRate } from './format-rate.js';
export { formatTotalsMarkdown, formatTotalsTable } from './format-totals.js';
export { formatJunit } from './format-junit.js';
