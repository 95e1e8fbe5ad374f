export { checkActions } from './check-actions.js';
export { observedRuns } from './observed-runs.js';
export { parseCheckInput, safeParseCheckInput } from './check-input.js';
export type { SafeParseCheckInputResult } from './check-input.js';
export { CHECK_HANDLERS } from './checks/registry.js';
export type { CheckHandler, Judge, Round, RuleLabel } from './checks/check-handler.js';
export { compileGlobs, GLOB_OPTIONS } from './glob.js';
export type { PathMatcher } from './glob.js';
export { defaultRulebookPath, loadRulebook } from './load-rulebook.js';
export { checkRecordedRulebook, parseRulebook, safeParseRulebook } from './parse-rulebook.js';
export type { SafeParseRulebookResult } from './parse-rulebook.js';
export { MAX_PATH_LENGTH, normalizeRepoPath } from './paths.js';
export type { NormalizedPath } from './paths.js';
export { renderRulebook } from './render-rulebook.js';
export { RulebookError } from './rulebook-error.js';
export type { RulebookErrorCode, RulebookProblem } from './rulebook-error.js';
// issue #28 kinds
export { manifestOf } from './dependencies/read-dependencies.js';
