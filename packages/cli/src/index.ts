// The library API: what `import … from 'holdfast'` offers. The same functions the CLI uses to read
// a rulebook, read a model reply, judge actions and read run files; nothing here runs at import time.
export { checkActions } from '@holdfast/core/rules';
export { defaultRulebookPath, loadRulebook } from '@holdfast/core/rules';
export { parseRulebook, safeParseRulebook } from '@holdfast/core/rules';
export type { SafeParseRulebookResult } from '@holdfast/core/rules';
export { renderRulebook } from '@holdfast/core/rules';
export { RulebookError } from '@holdfast/core/rules';
export type { RulebookErrorCode, RulebookProblem } from '@holdfast/core/rules';
export { parseReply } from '@holdfast/core/reply';
export { readRunFile, readRunFileStrict } from '@holdfast/lab/store';
export { parseRunFileText, safeParseRunFileText } from '@holdfast/lab/store';
export type { RunFileContents, RunFileProblem } from '@holdfast/lab/store';
export { initialRunState, reduceRunEvent, reduceRunEvents } from '@holdfast/lab/store';
export type { RoundState, RunState } from '@holdfast/lab/store';
export { HoldfastError, InputError } from '@holdfast/core/contract';
export { ActionSchema, CheckInputSchema } from '@holdfast/core/contract';
export type { Action, CheckInput } from '@holdfast/core/contract';
export { CheckResultSchema } from '@holdfast/core/contract';
export type { CheckResult } from '@holdfast/core/contract';
export { RulebookSchema } from '@holdfast/core/contract';
export type { Rule, Rulebook } from '@holdfast/core/contract';
export type { ParsedReply } from '@holdfast/core/contract';
export { RunEventSchema } from '@holdfast/core/contract';
export type { RunEvent } from '@holdfast/core/contract';
export type { Verdict } from '@holdfast/core/contract';
export { main } from './main.js';
