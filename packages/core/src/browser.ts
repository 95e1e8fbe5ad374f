export type { Action } from './contract/action.js';
export {
  APPROVAL_TOKEN_HEADER,
  ApiErrorSchema,
  ConfigResponseSchema,
  LiveRunsResponseSchema,
  PressureFileResponseSchema,
  PressureListResponseSchema,
  RoundEventsResponseSchema,
  RunListResponseSchema,
  RunStartedResponseSchema,
  SessionMessageSchema,
} from './contract/api.js';
export type {
  ApiPressureFile,
  ApiRunFile,
  ConfigResponse,
  LiveApproval,
  LiveRunSummary,
  LiveWorker,
  PressureFileResponse,
  PressureListResponse,
  PressureSummaryRowBody,
  RunListResponse,
  RunSelection,
  RunStartedResponse,
  RunView,
} from './contract/api.js';
export type { ActionOutcome, ArmResult, SandboxResult } from './contract/arm-result.js';
export { RunEventSchema } from './contract/events.js';
export type { RunEvent, TaskInfo } from './contract/events.js';
export { jsonOrUndefined } from './contract/json.js';
export type { Judgement } from './contract/judgement.js';
export type { PressureVariant, PressureVerdict } from './contract/pressure.js';
export type { ParseMethod } from './contract/reply.js';
export { CHECK_KINDS, RuleCheckSchema, RulebookSchema } from './contract/rulebook.js';
export type { RuleCheck, Rulebook } from './contract/rulebook.js';
export type { Mode, Session, ToolCallRecord, ToolDecision } from './contract/session.js';
export type { ArmTotals, Rate, Totals } from './contract/totals.js';
export type { ActionStatus, Arm, Verdict } from './contract/verdict.js';
export { renderRulebook } from './rules/render-rulebook.js';
export { compareRates } from './stats/compare-rates.js';
export type { RateComparison } from './stats/compare-rates.js';
