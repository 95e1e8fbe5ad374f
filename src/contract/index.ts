export {
  ACTION_TYPES,
  ActionSchema,
  CheckInputSchema,
  CommitActionSchema,
  DeleteActionSchema,
  RunActionSchema,
  WriteActionSchema,
} from './action.js';
export type {
  Action,
  ActionType,
  CheckInput,
  CommitAction,
  DeleteAction,
  RunAction,
  WriteAction,
} from './action.js';
export { ParseMethodSchema, ParsedReplySchema } from './reply.js';
export type { ParseMethod, ParsedActions, ParsedDecline, ParsedReply, ParsedUnparseable } from './reply.js';
export { CheckReportSchema, CheckResultSchema } from './check-result.js';
export type { CheckReport, CheckResult } from './check-result.js';
export {
  AgentSchema,
  CHECK_KINDS,
  ForbiddenPatternCheckSchema,
  HttpHelperCheckSchema,
  OrderCheckSchema,
  RuleCheckSchema,
  RuleSchema,
  RulebookSchema,
  SandboxPolicySchema,
  ScopeCheckSchema,
  SecretCheckSchema,
  SiblingTestCheckSchema,
} from './rulebook.js';
export type {
  Agent,
  CheckKind,
  ForbiddenPatternCheck,
  HttpHelperCheck,
  OrderCheck,
  Rule,
  RuleCheck,
  Rulebook,
  SandboxPolicy,
  ScopeCheck,
  SecretCheck,
  SiblingTestCheck,
} from './rulebook.js';
export { ActionStatusSchema, ArmSchema, VerdictSchema } from './verdict.js';
export type { ActionStatus, Arm, Verdict } from './verdict.js';
export {
  ActionOutcomeSchema,
  ArmResultSchema,
  CappedTextSchema,
  GenerationSchema,
  LandedSchema,
  SandboxCommandSchema,
  SandboxResultSchema,
  UsageSchema,
} from './arm-result.js';
export type {
  ActionOutcome,
  ArmResult,
  CappedText,
  Generation,
  Landed,
  SandboxCommand,
  SandboxResult,
  Usage,
} from './arm-result.js';
export { ArmTotalsSchema, RateSchema, RuleTotalsSchema, TotalsSchema } from './totals.js';
export type { ArmTotals, Rate, RuleTotals, Totals } from './totals.js';
export {
  ApprovalEndEventSchema,
  ApprovalRequestEventSchema,
  ArmEndEventSchema,
  RoundStartEventSchema,
  RunConfigSchema,
  RunEndEventSchema,
  RunEventSchema,
  RunStartEventSchema,
  TargetInfoSchema,
  TaskInfoSchema,
  TotalsEventSchema,
} from './events.js';
export type {
  ApprovalEndEvent,
  ApprovalRequestEvent,
  ArmEndEvent,
  RoundStartEvent,
  RunConfig,
  RunEndEvent,
  RunEvent,
  RunEventInput,
  RunEventType,
  RunStartEvent,
  TargetInfo,
  TaskInfo,
  TotalsEvent,
} from './events.js';
export { HoldfastError, InputError } from './errors.js';
export {
  CHOICE_ID_PATTERN,
  PRESSURE_ID_PATTERN,
  PRESSURE_KINDS,
  PressureChoiceSchema,
  PressureEvaluationSchema,
  PressureFixtureSchema,
  PressureKindSchema,
  PressureRecordSchema,
  PressureResponseLineSchema,
  PressureVariantSchema,
  PressureVerdictSchema,
  RationalizationSchema,
  ResponseOriginSchema,
} from './pressure.js';
export type {
  PressureChoice,
  PressureEvaluation,
  PressureFixture,
  PressureKind,
  PressureRecord,
  PressureResponseLine,
  PressureVariant,
  PressureVerdict,
  Rationalization,
  ResponseOrigin,
} from './pressure.js';
export {
  APPROVAL_TOKEN_HEADER,
  ApiErrorSchema,
  ApiPressureFileSchema,
  ApiRunFileSchema,
  ApiTargetSchema,
  ApiTaskSchema,
  ApprovalAnswerSchema,
  ConfigResponseSchema,
  PressureFileResponseSchema,
  PressureListResponseSchema,
  PressureSummaryRowSchema,
  RoundEventsResponseSchema,
  RunListResponseSchema,
  RunSelectionSchema,
  RunStartedResponseSchema,
  RunViewSchema,
  SavedRunResponseSchema,
  SessionMessageSchema,
} from './api.js';
export type {
  ApiError,
  ApiPressureFile,
  ApiRunFile,
  ApiTarget,
  ApiTask,
  ApprovalAnswer,
  ConfigResponse,
  PressureFileResponse,
  PressureListResponse,
  PressureSummaryRowBody,
  RoundEventsResponse,
  RunListResponse,
  RunSelection,
  RunStartedResponse,
  RunView,
  SavedRunResponse,
  SessionMessage,
} from './api.js';
