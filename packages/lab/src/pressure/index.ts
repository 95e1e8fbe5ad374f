export { ANY_AGENT, checkFixtureDebt, formatDebtCheck, pressureCoverage, suiteCoverage } from './coverage.js';
export type { CoverageOptions, DebtCheck, PressureCoverage, RuleCoverage } from './coverage.js';
export { comparePressureResults, DEFAULT_ALPHA, formatP } from './compare.js';
export type { CompareOptions, PressureChange, PressureComparison, PressureComparisonRow, PressureTally } from './compare.js';
export { defaultFixturesDir } from './default-dir.js';
export {
  AGENTS_FILE,
  EXTENSIONS_FILE,
  readAgentsFile,
  readExtensionsFile,
  readFixtureSources,
  readSuiteFile,
  readUncoveredFile,
  SUITE_FILE,
  UNCOVERED_FILE,
} from './fixture-files.js';
export type { SuiteFile } from './fixture-files.js';
export { lintContextFrom } from './lint-context.js';
export type { LintContext, LintContextSources } from './lint-context.js';
export { lintFixture, MIN_CHOICES, MIN_PRESSURES, MIN_SCENARIO_CHARS, parsePressureFixture } from './lint-fixture.js';
export type { FixtureLintResult } from './lint-fixture.js';
export { lintFixtureSet } from './lint-set.js';
export type { FixtureSetLint, FixtureSource, UnboundFixture } from './lint-set.js';
export { loadPressureSuite, suiteRuleOf } from './load-suite.js';
export type { LoadPressureSuiteOptions, PressureSuite } from './load-suite.js';
export { renderRationalizationDocs } from './rationalization-docs.js';
export { formatRefusal, PressureFileError, PressureFixtureError, REFUSAL_CODES, UnknownFixtureError, WARNING_CODES } from './refusal.js';
export type { LintWarning, Refusal, RefusalCode, WarningCode } from './refusal.js';
export { formatPressurePrompt, renderPressurePrompt } from './render-prompt.js';
export type { PressurePrompt, PromptAgent, PromptMessage } from './render-prompt.js';
export { formatPressureRecord, parsePressureRecords, parsePressureResponses, safeParsePressureRecords, safeParsePressureResponses } from './result-files.js';
export { readChoices, readRuleNumbers, ruleCitations, scorePressureResponse } from './score.js';
export type { ScoredRule, ScoreOptions } from './score.js';
export { fixtureById, ruleOf, scoreResponseLines } from './score-responses.js';
export type { ScoreResponsesOptions } from './score-responses.js';
export { summarizePressureRecords } from './summary.js';
export type { PressureSummaryRow } from './summary.js';
export { runPressureLive } from './run-live.js';
export type { PressureRunOptions } from './run-live.js';
export { parseAgentFile, readAgentFiles } from './agent-files.js';
export type { AgentDefinition } from './agent-files.js';
export { formatPressureGate, pressureGate } from './gate.js';
export type { PressureGate } from './gate.js';
export { findRule, formatRuleRef, pressureRules, ruleMatches } from './rule-ref.js';
export type { PressureRule } from './rule-ref.js';
export { ruleBinding } from './rule-binding.js';
export type { RuleBinding, RuleBindingSources, RuleResolution } from './rule-binding.js';
export { describeMeaning, forbiddenLiterals, sameRuleMeaning } from './rule-meaning.js';
export { fixtureSkeleton, PLACEHOLDER, skeletonId } from './fixture-skeleton.js';
export type { SkeletonOptions } from './fixture-skeleton.js';
export { createHarnessResponder } from './harness-responder.js';
export type { HarnessResponderOptions } from './harness-responder.js';
