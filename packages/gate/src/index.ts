export { applyHunks, readApplyPatch } from './apply-patch.js';
export type { PatchHunk, PatchOperation } from './apply-patch.js';
export { appendAudit, auditActionText, auditLogPath, formatAuditSummary, summarizeAudit, summarizeAuditText } from './audit.js';
export type { AuditDecision, AuditEntry, AuditRuleCount, AuditSummary, AuditVerdict } from './audit.js';
export { ALLOWANCE_MINUTES, allowancePath, consumeAllowance, grantAllowance } from './allowance.js';
export type { Allowance } from './allowance.js';
export { applyEdit, parseClaudeEvent, readClaudeToolCall, safeParseClaudeEvent } from './claude-code.js';
export type { ClaudePreToolUse } from './claude-code.js';
export { readPreToolUse, readStopEvent, safeParseHookEvent, safeParsePreToolUse } from './hook-event.js';
export type { HookEvent, PreToolUseEvent, SafeParse, StopEvent } from './hook-event.js';
export { parseCodexEvent, patchActions, readCodexToolCall, safeParseCodexEvent } from './codex.js';
export type { CodexPreToolUse } from './codex.js';
export { FLOWSPEC_VERSION, rulebookToFlowSpec } from './flowspec.js';
export type { FlowSpec, FlowSpecOptions, FlowSpecStep } from './flowspec.js';
export { continueAnswer, denyAnswer, internalErrorReason, reasonOf } from './hook-answer.js';
export type { HookAnswer } from './hook-answer.js';
export { gitHooksDirectory, installGate, uninstallGate } from './install.js';
export type { InstallChange } from './install.js';
export { agentHookCommand, isHoldfastCommand } from './hook-command.js';
export type { HookTarget } from './hook-command.js';
export {
  bypassFindings,
  decideToolCall,
  decideTurnEnd,
  lastTestRun,
  nextSessionState,
  projectOnDisk,
  replayedRound,
  testPattern,
  withFailedRuns,
} from './decide.js';
export type { CheckActions, ChangeCheckSetup, Judgement, ProjectView, Replay, RuleVerdict } from './decide.js';
export { postCheckAvailable, SnapshotError } from './git-process.js';
export { checkChangesLazily, checkChangesWith } from './check-changes.js';
export type { ChangeFailure, ChangesToJudge, ChangeCheck, ChangeCheckOptions } from './check-changes.js';
export { checkAfterCall } from './post-check.js';
export type { PostCheckOutcome, RevertedPath, RevertedRef } from './post-check.js';
export { answerPostToolUse, isShellTool, postToolAnswer, revertReason, safeParsePostToolEvent, SHELL_TOOLS } from './post-tool.js';
export type { PostToolEvent, PostToolUseOptions } from './post-tool.js';
export { answerPreCommit, committedPaths, gitRoot, stagedActions } from './pre-commit.js';
export type { PreCommitOptions } from './pre-commit.js';
export { loadRulebookCached, loadRulesEngine, shippedRulebookPath } from './rules-engine.js';
export type { RulesEngine } from './rules-engine.js';
export { answerAgentHook } from './run-hook.js';
export { detectCaseInsensitive, projectRoot, resolveActionPaths, resolveOnDisk } from './real-path.js';
export type { PathNote, ProjectRoot, ResolvedPath } from './real-path.js';
export { protectedPlaces, tamperFindings } from './tamper.js';
export type { GateFinding, ProtectedPlace } from './tamper.js';
export type { AgentHook, HookOptions } from './run-hook.js';
export {
  FRESH_SESSION,
  latestSessionState,
  loadSessionState,
  saveSessionState,
  sessionFileName,
  sessionMirrorFolder,
  sessionStatePath,
} from './session-state.js';
export type { LoadedSessionState, SessionState } from './session-state.js';
export { isTestRun, readShellCommand } from './shell-command.js';
export type { GateBypass, ShellContext, ShellReading } from './shell-command.js';
export { beforeShellCall, findSnapshotRecord, takeSnapshot } from './snapshot.js';
export { snapshotStorePath } from './snapshot-store.js';
export type { OpenRecord, Snapshot, SnapshotRecord } from './snapshot.js';
export { GATE_AGENTS, readTextFromDisk, toRepoPath } from './tool-call.js';
export type { GateAgent, ReadText, ToolCall } from './tool-call.js';
export { readAuditEntry } from './audit.js';
export { printChanges, readTargets } from './commands/install.js';
export type { TargetChange } from './commands/install.js';
export { COLLECT_STEP, FLOW_ACTIONS_PATH, shellQuote } from './flowspec.js';
export { HOOK_TIMEOUT_SECONDS, deadlineMs, hookEntryPath } from './hook-command.js';
export { gitOutput } from './pre-commit.js';
export { workTreeChanges } from './work-tree-changes.js';
export { knownToExist } from './pre-commit.js';
export { verifyJunit } from './verify-junit.js';
export { verifyMarkdown } from './verify-markdown.js';
export { verifySarif } from './verify-sarif.js';
export type { SarifLog } from './verify-sarif.js';
export { DEFAULT_VERIFY_RULEBOOK, rulebookAtBase, verifyRange } from './verify.js';
export type { VerifiedCommit, VerifyFinding, VerifyOptions, VerifyReport } from './verify.js';
export { PROJECT_RULEBOOK, RULEBOOK_ENV, findProjectRulebook } from './project-rulebook.js';
export type { ProjectRulebook } from './project-rulebook.js';
export { realTimers, withinDeadline } from './deadline.js';
export type { Raced, Timers } from './deadline.js';
export { WEAKER_GUARANTEE, execAgent } from './exec-agent.js';
export type { ExecAgentOptions, ExecOutcome } from './exec-agent.js';
export { containmentArgs, inside, installationOf } from './containment.js';
export { holdfastInstallation } from './holdfast-installation.js';
export { confirmOnWorkTree } from './run-confirmation.js';
export { commitTreeRunner } from './commit-rerun.js';
export type { RunOnCommitTree } from './commit-rerun.js';
export { requiredCommandTest, rerunTimeoutMs } from './required-commands.js';
export type { ConfirmRun, RunClaim, WorkTreeConfirmation } from './run-confirmation.js';
export { BUBBLEWRAP_HINT, findBubblewrap } from './containment.js';
export { runOnTree } from './tree-rerun.js';
export type { TreeRunDeadline, TreeRunOutcome } from './tree-rerun.js';
export { requiredCommandsOf, runRequiredOnHead } from './verify-required.js';
export type { RequiredRunResult, RunRequiredSetup } from './verify-required.js';
