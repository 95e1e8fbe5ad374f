export {
  DEMO_TARGETS,
  DemoRepliesError,
  DemoRepliesSchema,
  DemoReplySchema,
  defaultDemoRepliesPath,
  demoCoverageProblems,
  demoReplyLookup,
  loadDemoReplies,
  parseDemoReplies,
  safeParseDemoReplies,
  SHIPPED_DEMO_REPLIES,
  demoRepliesFileOf,
} from './demo-replies.js';
export type { DemoCoverage, DemoReplies, DemoReply, DemoTarget, SafeParseDemoRepliesResult } from './demo-replies.js';
export { AGENTS_FILE, SYSTEM_PROMPT, buildMessages } from './prompt.js';
export type { PromptMessage } from './prompt.js';
export {
  REPO_DIR,
  TASK_FILE,
  TaskFileError,
  TaskFileSchema,
  UnknownTaskError,
  defaultTasksDir,
  loadTasks,
  parseTaskFile,
  safeParseTaskFile,
  selectTasks,
} from './tasks.js';
export type { LoadTasksOptions, SafeParseTaskFileResult, TaskFile } from './tasks.js';
export { PendingApprovals, decideWithDeadline, policyApprover } from './approvals.js';
export type { ApprovalDecision, ApprovalRequest, Approver } from './approvals.js';
export { errorArm, holdArm, tellArm } from './arm.js';
export type { ArmInput, CommitGate } from './arm.js';
export { DEFAULT_MAX_TOKENS, planRounds, roundIdOf, roundsInOrder, runExperiment, runStartDraft } from './runner.js';
export type { ExperimentModel, ExperimentOptions, ExperimentOutcome, ExperimentTarget, RoundSpec, SandboxRunOptions } from './runner.js';
export type { Lander, Landing, OpenLander } from './lander.js';
export { completedRounds, runSession } from './run-session.js';
export type { RunSessionOptions, RunSessionResult, SessionBaseOptions } from './run-session.js';
export { rescoreRun } from './rescore.js';
export type { RescoreResult, VerdictChange } from './rescore.js';
export { createScriptedModel } from './scripted-model.js';
export type { ReplyLookup } from './scripted-model.js';
export { checkModeTargets } from './mode-targets.js';
export { checkRunRequest, planReplay } from './plan-run.js';
export { configuredTargetInfos, resolveConfiguredTargets, resolveReplayTargets, resolveScriptedTargets } from './resolve-targets.js';
export type { FinalStateOptions, TimelineStep } from './final-state.js';
export type { RepoLocation } from './session/repo-git.js';
export { sessionVerdict } from './session/session-verdict.js';
export type { SessionVerdict } from './session/session-verdict.js';
// The loop itself (src/experiment/loop/) is loaded by the runner only when a run is in loop mode.
export { LOOP_TOOLS } from './loop/loop-tools.js';
// Agent mode (the gate, the sandbox, the harnesses) has an entry of its own, @holdfast/lab/experiment/agent,
// so a plan-mode run does not load it.
export { createJudgePool } from './reply-check/judge-pool.js';
export type { ReplyJudge } from './reply-check/judge-reply.js';
export type { JudgePool } from './reply-check/judge-pool.js';
