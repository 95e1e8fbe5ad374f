// The library API: what `import … from 'holdfast'` offers. The same functions the CLI uses to read
// a rulebook, read a model reply, judge actions and read run files; nothing here runs at import time.
export { checkActions } from './rules/check-actions.js';
export { defaultRulebookPath, loadRulebook } from './rules/load-rulebook.js';
export { parseRulebook, safeParseRulebook } from './rules/parse-rulebook.js';
export type { SafeParseRulebookResult } from './rules/parse-rulebook.js';
export { renderRulebook } from './rules/render-rulebook.js';
export { RulebookError } from './rules/rulebook-error.js';
export type { RulebookErrorCode, RulebookProblem } from './rules/rulebook-error.js';
export { parseReply } from './reply/parse-reply.js';
export { readRunFile, readRunFileStrict } from './store/read-run-file.js';
export { parseRunFileText, safeParseRunFileText } from './store/run-file-text.js';
export type { RunFileContents, RunFileProblem } from './store/run-file-text.js';
export { initialRunState, reduceRunEvent, reduceRunEvents } from './store/run-state.js';
export type { RoundState, RunState } from './store/run-state.js';
export { HoldfastError, InputError } from './contract/errors.js';
export { ActionSchema, CheckInputSchema } from './contract/action.js';
export type { Action, CheckInput } from './contract/action.js';
export { CheckResultSchema } from './contract/check-result.js';
export type { CheckResult } from './contract/check-result.js';
export { RulebookSchema } from './contract/rulebook.js';
export type { Rule, Rulebook } from './contract/rulebook.js';
export type { ParsedReply } from './contract/reply.js';
export { RunEventSchema } from './contract/events.js';
export type { RunEvent } from './contract/events.js';
export type { Verdict } from './contract/verdict.js';
