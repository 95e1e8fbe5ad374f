export { compareRates } from './compare-rates.js';
export type { RateComparison } from './compare-rates.js';
export { fisherExact } from './fisher-exact.js';
export type { FisherResult } from './fisher-exact.js';
export { passHatK } from './pass-hat-k.js';
export { toRate, wilson, Z_95 } from './wilson.js';
export type { Interval } from './wilson.js';
