export { ACTION_TYPES, ActionSchema, CheckInputSchema, CommitActionSchema, DeleteActionSchema, RunActionSchema, WriteActionSchema } from './action.js';
export type { Action, ActionType, CheckInput, CommitAction, DeleteAction, RunAction, WriteAction } from './action.js';
export { EMPTY_REPLY_PREFIX, ParseMethodSchema, ParsedReplySchema } from './reply.js';
export type { ParseMethod, ParsedActions, ParsedDecline, ParsedReply, ParsedUnparseable } from './reply.js';
export { CheckReportSchema, CheckResultSchema } from './check-result.js';
export type { CheckReport, CheckResult } from './check-result.js';
export type { LandRequest, ObservedRun, Recheck } from './landing.js';
export {
  AgentSchema,
  CHECK_KINDS,
  CODE_LANGUAGES,
  CodeCheckSchema,
  ForbiddenPatternCheckSchema,
  ForbidSchema,
  HttpHelperCheckSchema,
  JudgeExampleSchema,
  JudgeRubricSchema,
  JudgeRuleSchema,
  OrderCheckSchema,
  ProseRuleSchema,
  RuleCheckSchema,
  RuleSchema,
  RulebookSchema,
  SandboxPolicySchema,
  GitPolicySchema,
  ScopeCheckSchema,
  SecretCheckSchema,
  SiblingTestCheckSchema,
} from './rulebook.js';
export type {
  Agent,
  CheckKind,
  CodeCheck,
  CodeLanguage,
  Enforcement,
  Forbid,
  ForbiddenPatternCheck,
  HttpHelperCheck,
  JudgeExample,
  JudgeRubric,
  JudgeRule,
  OrderCheck,
  ProseRule,
  Rule,
  RuleCheck,
  Rulebook,
  SandboxPolicy,
  ScopeCheck,
  SecretCheck,
  SiblingTestCheck,
} from './rulebook.js';
export {
  CommandCheckSchema,
  CustomCheckSchema,
  DEPENDENCY_MANIFESTS,
  DependencyCheckSchema,
  ForbiddenCommandSchema,
  PathsCheckSchema,
  RequiredCommandSchema,
  RequiresCheckSchema,
} from './rulebook.js';
export type {
  CommandCheck,
  CustomCheck,
  DependencyCheck,
  DependencyManifest,
  ForbiddenCommand,
  PathsCheck,
  RequiredCommand,
  RequiresCheck,
} from './rulebook.js';
export { ActionStatusSchema, ArmSchema, VerdictSchema } from './verdict.js';
export type { ActionStatus, Arm, Verdict } from './verdict.js';
export { RuleSourceFileSchema, RuleSourceSpanSchema, RulebookSectionSchema } from './rulebook.js';
export type { RuleSourceFile, RuleSourceSpan, RulebookSection } from './rulebook.js';
export {
  LandedViolationSchema,
  ModeSchema,
  SessionModeSchema,
  SessionSchema,
  SessionUsageSchema,
  StopReasonSchema,
  TaskCheckSchema,
  ToolCallRecordSchema,
  ToolDecisionSchema,
} from './session.js';
export type { LandedViolation, Mode, Session, SessionMode, SessionUsage, StopReason, TaskCheck, ToolCallRecord, ToolDecision } from './session.js';
export {
  ActionOutcomeSchema,
  ArmResultSchema,
  CappedTextSchema,
  GenerationSchema,
  LandedSchema,
  SandboxCommandSchema,
  SandboxResultSchema,
  STORED_REPLY_BYTES,
  UsageSchema,
} from './arm-result.js';
export type { ActionOutcome, ArmResult, CappedText, Generation, Landed, SandboxCommand, SandboxResult, Usage } from './arm-result.js';
export { JudgeEvidenceSchema, JudgeSampleSchema, JudgeVerdictSchema, JudgementSchema } from './judgement.js';
export type { JudgeEvidence, JudgeSample, JudgeVerdict, Judgement } from './judgement.js';
export { ArmTotalsSchema, RateSchema, RuleTotalsSchema, TotalsSchema } from './totals.js';
export type { ArmTotals, Rate, RuleTotals, Totals } from './totals.js';
export {
  ApprovalEndEventSchema,
  ApprovalRequestEventSchema,
  ArmEndEventSchema,
  JudgeEventSchema,
  RUN_FILE_VERSIONS,
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
  JudgeEvent,
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
export { jsonOrUndefined, safeParseJson } from './json.js';
export { realTimers } from './timers.js';
export type { Timers } from './timers.js';
export type { JsonResult } from './json.js';
export {
  CHOICE_ID_PATTERN,
  PRESSURE_ID_PATTERN,
  PRESSURE_KINDS,
  PRESSURE_KIND_EXTENSIONS,
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
  LiveApprovalSchema,
  LiveRunSummarySchema,
  LiveWorkerSchema,
  LiveRunsResponseSchema,
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
  LiveApproval,
  LiveRunSummary,
  LiveWorker,
  LiveRunsResponse,
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
