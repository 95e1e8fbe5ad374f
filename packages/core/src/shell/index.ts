export { EMPTY_OUTPUT, UNKNOWN_OUTPUT, expandHereDocBody, expandWhole, expandWord, joinOutputs, syntheticField } from './shell-word.js';
export type { Expander, Field, Output } from './shell-word.js';
export { isWrapper, unwrap } from './wrappers.js';
