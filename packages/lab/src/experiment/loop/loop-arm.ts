import type {
  Action,
  Arm,
  ArmResult,
  CheckResult,
  Rulebook,
  SandboxCommand,
  SandboxResult,
  Session,
  SessionUsage,
  StopReason,
  TaskCheck,
  TaskInfo,
  ToolCallRecord,
} from '@holdfast/core/contract';
import { isReplyTooLarge, redact } from '../../models/index.js';
import type { ConversationMessage, ToolCallRequest, ToolCallingModel, ToolResultMessage } from '../../models/index.js';
import { isCutOff } from '@holdfast/core/reply';
import { capText } from '../../sandbox/index.js';
import { judgeFinalState } from '../final-state.js';
import type { TimelineStep } from '../final-state.js';
import { sandboxCapVerdict, sessionVerdict, splitLanded } from '../session/session-verdict.js';
import type { SessionVerdict } from '../session/session-verdict.js';
import { FRESH_SESSION, decideToolCall, decideTurnEnd, nextSessionState, projectOnDisk, warningOf, withFailedRuns } from '@holdfast/gate';
import type { Judgement, SessionState } from '@holdfast/gate';
import { byEnforcement, checkActions, countsAsRequiredRun } from '@holdfast/core/rules';
import { LOOP_SYSTEM_PROMPT, loopTicketMessage } from './loop-prompt.js';
import { LOOP_TOOLS, readIntent } from './loop-tools.js';
import type { LoopIntent } from './loop-tools.js';
import type { CommandOutcome, LoopWorkspace } from './loop-workspace.js';

const DEFAULT_TURN_CAP = 30;
const DEFAULT_SESSION_TIMEOUT_MS = 20 * 60 * 1000;

/** Caps on what a call keeps in the run file; the model itself gets the tool's whole answer up to TOOL_ANSWER_BYTES. */
const INPUT_CAP_BYTES = 2 * 1024;
const OUTPUT_CAP_BYTES = 4 * 1024;
const TOOL_ANSWER_BYTES = 32 * 1024;

/** The tool the gate's own end-of-session check appears as in the timeline. */
export const END_CHECK_TOOL = 'holdfast:end-check';

export interface LoopArmOptions {
  readonly arm: Arm;
  /** The task, its files as the workspace holds them (AGENTS.md included). */
  readonly task: TaskInfo;
  readonly agentsMd: string;
  readonly rulebook: Rulebook;
  readonly model: ToolCallingModel;
  readonly workspace: LoopWorkspace;
  readonly turnCap?: number;
  readonly timeoutMs?: number;
  readonly maxTokens: number;
  readonly temperature: number;
  /** The run's cancellation: an arm cut short by it returns undefined (the round is left for --resume). */
  readonly signal?: AbortSignal;
  /** Milliseconds; the session's deadline is checked against it before each turn. */
  readonly now?: () => number;
  /** Values (API keys) kept out of recorded tool inputs. */
  readonly secrets?: readonly string[];
}

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'E_PROVIDER', message: error.message };
  }
  return { code: 'E_PROVIDER', message: String(error) };
}

function addUsage(total: SessionUsage, usage: SessionUsage): SessionUsage {
  const sum = (left: number | undefined, right: number | undefined) => (left === undefined && right === undefined ? undefined : (left ?? 0) + (right ?? 0));
  const input = sum(total.inputTokens, usage.inputTokens);
  const output = sum(total.outputTokens, usage.outputTokens);
  const reasoning = sum(total.reasoningTokens, usage.reasoningTokens);
  return {
    ...(input !== undefined ? { inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  };
}

function occurrences(text: string, part: string): number {
  if (part === '') return 0;
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count += 1;
  return count;
}

function commandAnswer(outcome: CommandOutcome): string {
  const output = outcome.output.text.trimEnd();
  return output === '' ? outcome.detail : `${outcome.detail}\n${output}${outcome.output.truncated ? '\n[output cut]' : ''}`;
}

/** What one call asks to change, or the answer it gets without changing anything. */
type Prepared = { readonly actions: readonly Action[] } | { readonly answer: string; readonly isError: boolean };

/** What an arm gathers as it goes: the evidence recorded, and the session its calls are judged against (the gate's own record). */
interface LoopState {
  readonly calls: ToolCallRecord[];
  readonly timeline: TimelineStep[];
  readonly commands: SandboxCommand[];
  readonly commits: SandboxResult['commits'];
  session: SessionState;
  /** Set once a write or a command met the work tree's size cap: the session ends there. */
  overCap?: string;
}

/** What every step of one arm reads: its options, the session's signal, which runs a commit-timed rule counts. */
interface LoopContext {
  readonly options: LoopArmOptions;
  /** Whether a command line is a run of a command the rulebook requires (the timeline's `test` steps). */
  readonly required: (commandLine: string) => boolean;
  readonly secrets: readonly string[];
  readonly now: () => number;
  /** The session's own signal: the run's cancellation or the session's timeout. */
  readonly signal: AbortSignal;
  readonly state: LoopState;
  readonly readCurrent: (path: string) => string | undefined;
}

/** How the model conversation ended. */
interface Conversation {
  readonly stop: Session['stop'];
  readonly error?: { code: string; message: string };
  readonly turns: number;
  readonly usage: SessionUsage;
  readonly lastText: string;
  readonly callsOverCap: number;
}

function prepare(intent: LoopIntent, workspace: LoopWorkspace): Prepared {
  switch (intent.tool) {
    case 'invalid':
      return { answer: `Error: ${intent.reason}.`, isError: true };
    case 'read_file': {
      const read = workspace.readFile(intent.path);
      if (!read.ok) return { answer: `Error: cannot read ${intent.path}: ${read.reason}.`, isError: true };
      const capped = capText(read.content, TOOL_ANSWER_BYTES);
      return { answer: capped.truncated ? `${capped.text}\n[cut at ${TOOL_ANSWER_BYTES} bytes of ${capped.bytes}]` : capped.text, isError: false };
    }
    case 'list_files': {
      const listed = workspace.listFiles(intent.path);
      if (!listed.ok) return { answer: `Error: cannot list ${intent.path ?? '.'}: ${listed.reason}.`, isError: true };
      return { answer: (listed.files ?? []).join('\n') || '(no files)', isError: false };
    }
    case 'write_file':
      return { actions: [{ type: 'write', path: intent.path, content: intent.content }] };
    case 'edit_file':
      return prepareEdit(intent, workspace);
    case 'delete_file':
      return { actions: [{ type: 'delete', path: intent.path }] };
    case 'run_command':
      return { actions: [{ type: 'run', cmd: intent.command }] };
    case 'commit':
      return { actions: [{ type: 'commit', message: intent.message }] };
  }
}

function prepareEdit(intent: Extract<LoopIntent, { tool: 'edit_file' }>, workspace: LoopWorkspace): Prepared {
  const read = workspace.readFile(intent.path);
  if (!read.ok) return { answer: `Error: cannot edit ${intent.path}: ${read.reason}.`, isError: true };
  const found = occurrences(read.content, intent.oldString);
  if (found !== 1) {
    const why = found === 0 ? 'old_string does not occur in the file' : `old_string occurs ${found} times; give more context so it occurs once`;
    return { answer: `Error: cannot edit ${intent.path}: ${why}.`, isError: true };
  }
  const at = read.content.indexOf(intent.oldString);
  const content = `${read.content.slice(0, at)}${intent.newString}${read.content.slice(at + intent.oldString.length)}`;
  return { actions: [{ type: 'write', path: intent.path, content }] };
}

/**
 * Applies an allowed action and answers the model; the session record and the timeline follow what
 * really happened (`next`: the session as the judgement left it, kept only when the action applied).
 */
async function apply(
  context: LoopContext,
  action: Action,
  index: number,
  next: SessionState,
): Promise<{ answer: string; isError: boolean; extra: Partial<ToolCallRecord> }> {
  const { workspace } = context.options;
  const { state } = context;
  switch (action.type) {
    case 'write':
    case 'delete': {
      const done = action.type === 'write' ? workspace.writeFile(action.path, action.content) : workspace.deleteFile(action.path);
      if (!done.ok) {
        if ('overCap' in done) state.overCap = done.reason;
        return { answer: `Error: ${done.reason}.`, isError: true, extra: {} };
      }
      state.session = next;
      state.timeline.push({ type: 'change' });
      return { answer: done.detail, isError: false, extra: {} };
    }
    case 'run': {
      const outcome = await workspace.runCommand(action.cmd, context.signal);
      if (outcome.overCap !== undefined) state.overCap = outcome.overCap;
      const passed = outcome.executed && outcome.exitCode === 0;
      state.commands.push({
        index,
        cmd: action.cmd,
        executed: outcome.executed,
        reason: outcome.detail,
        ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
        ...(outcome.signal !== undefined ? { signal: outcome.signal } : {}),
        ...(outcome.timedOut !== undefined ? { timedOut: outcome.timedOut } : {}),
        ...(outcome.executed ? { output: capText(outcome.output.text, OUTPUT_CAP_BYTES) } : {}),
        ...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}),
      });
      if (outcome.executed && context.required(action.cmd)) state.timeline.push({ type: 'test', cmd: action.cmd, passed });
      // As the gate's hook after a call: a run that did not pass is marked so, and counts for no rule.
      state.session = passed ? next : withFailedRuns(next, action.cmd, runEnding(outcome));
      return { answer: commandAnswer(outcome), isError: !outcome.executed, extra: outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {} };
    }
    case 'commit': {
      const made = await workspace.commit(action.message);
      if (!made.ok) return { answer: `Error: ${made.reason}.`, isError: true, extra: {} };
      state.session = next;
      state.commits.push({ index, hash: made.hash, message: action.message });
      state.timeline.push({ type: 'commit', hash: made.hash });
      return { answer: `Committed ${made.hash.slice(0, 12)}.`, isError: false, extra: { commit: made.hash } };
    }
  }
}

/** How a command that did not pass ended, in the words the gate records for a failed run. */
function runEnding(outcome: CommandOutcome): string {
  if (!outcome.executed) return `it was not run (${outcome.detail})`;
  if (outcome.timedOut === true) return 'it timed out';
  if (outcome.exitCode !== undefined) return `exit code ${outcome.exitCode}`;
  return `it was ended by ${outcome.signal ?? 'a signal'}`;
}

/**
 * The rules a call breaks, as check results on its one action: what a held arm refuses (or, for rules at warn,
 * lets through with a warning) and a told arm records.
 */
function failedChecks(judgement: Judgement): CheckResult[] {
  const failures = judgement.decision === 'allow' ? [] : judgement.failures;
  return [...failures, ...judgement.warnings].map((failure) => ({ rule: failure.rule, name: failure.name, actionIndex: 0, ok: false, detail: failure.detail }));
}

/** One tool call: judged before it applies (held: a violation is refused with the rule's reason), then recorded. */
async function handle(context: LoopContext, request: ToolCallRequest, turn: number): Promise<ToolResultMessage> {
  const { arm, rulebook, workspace } = context.options;
  const { state } = context;
  const index = state.calls.length;
  const startedCall = context.now();
  const base = { index, turn, tool: request.name, callId: request.id, input: capText(redact(request.rawInput, context.secrets), INPUT_CAP_BYTES) };
  const prepared = prepare(readIntent(request.name, request.input, request.inputError), workspace);
  const answerWith = (record: ToolCallRecord, answer: string): ToolResultMessage => {
    state.calls.push({ ...record, output: capText(answer, OUTPUT_CAP_BYTES), durationMs: Math.max(0, context.now() - startedCall) });
    return { callId: request.id, name: request.name, content: capText(answer, TOOL_ANSWER_BYTES).text, isError: record.isError };
  };
  if ('answer' in prepared) return answerWith({ ...base, actions: [], checks: [], decision: 'applied', isError: prepared.isError }, prepared.answer);

  // The gate's own session judgement, as the live hook calls it: loop mode's held arm is the gate.
  const judgement = await decideToolCall(
    { actions: [...prepared.actions], bypasses: [] },
    { rulebook, checkActions, state: state.session, project: projectOnDisk(workspace.location.workTree) },
  );
  const checks = failedChecks(judgement);
  const first = checks[0];
  if (arm === 'held' && judgement.decision === 'deny' && first !== undefined) {
    // The reason is the rule's own sentence; nothing in it tells the model how to get around the gate.
    return answerWith(
      { ...base, actions: [...prepared.actions], checks, decision: 'blocked', rule: first.rule, detail: first.detail, isError: true },
      `Refused by the repository's rules, nothing was changed: ${first.detail}`,
    );
  }
  const answers: string[] = [];
  let isError = false;
  let extra: Partial<ToolCallRecord> = {};
  for (const action of prepared.actions) {
    const applied = await apply(context, action, index, judgement.next);
    answers.push(applied.answer);
    isError ||= applied.isError;
    extra = { ...extra, ...applied.extra };
  }
  const detail = checks.length > 0 ? checks.map((check) => check.detail).join(' ') : undefined;
  // Held, rules at warn only: the call ran, and the model reads the rule as the live hook would tell it.
  if (arm === 'held' && first !== undefined) {
    return answerWith(
      { ...base, ...extra, actions: [...prepared.actions], checks, decision: 'warned', rule: first.rule, ...(detail !== undefined ? { detail } : {}), isError },
      [...answers, warningOf(judgement.warnings)].join('\n'),
    );
  }
  return answerWith(
    { ...base, ...extra, actions: [...prepared.actions], checks, decision: 'applied', ...(detail !== undefined ? { detail } : {}), isError },
    answers.join('\n'),
  );
}

/**
 * Turn after turn until the model stops, the turn cap or the deadline. Undefined when the run was
 * cancelled (the round is left for --resume).
 */
async function converse(context: LoopContext, timing: { readonly deadline: number; readonly timedOut: () => boolean }): Promise<Conversation | undefined> {
  const { options } = context;
  const turnCap = options.turnCap ?? DEFAULT_TURN_CAP;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const timeout = { reason: 'timeout' as const, detail: `${Math.round(timeoutMs / 1000)} s` };
  const messages: ConversationMessage[] = [
    { role: 'system', content: LOOP_SYSTEM_PROMPT },
    { role: 'user', content: loopTicketMessage(options.task, options.agentsMd) },
  ];
  let usage: SessionUsage = {};
  let turns = 0;
  let lastText = '';
  let callsOverCap = 0;
  const ended = (stop: Session['stop'], error?: { code: string; message: string }): Conversation => ({
    stop,
    ...(error !== undefined ? { error } : {}),
    turns,
    usage,
    lastText,
    callsOverCap,
  });
  for (;;) {
    if (turns >= turnCap) return ended({ reason: 'turn-cap', detail: `${turnCap} turns` });
    if (context.now() >= timing.deadline) return ended(timeout);
    turns += 1;
    let reply;
    try {
      reply = await options.model.converse({
        messages,
        tools: LOOP_TOOLS,
        maxTokens: options.maxTokens,
        temperature: options.temperature,
        signal: context.signal,
      });
    } catch (caught) {
      if (options.signal?.aborted === true) return undefined;
      if (timing.timedOut()) return ended(timeout);
      // The model's own output, cut off at its cap unread: not a provider failure, so the arm stays in n.
      if (isReplyTooLarge(caught)) return ended({ reason: 'too-large', detail: caught.message });
      const error = describeError(caught);
      return ended({ reason: 'error', detail: error.message }, error);
    }
    usage = addUsage(usage, reply.usage);
    lastText = reply.text;
    messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
    if (reply.toolCalls.length === 0) {
      // A reply cut at the token limit never said it was done.
      return ended(
        isCutOff(reply.finishReason)
          ? { reason: 'cut-off', detail: `the provider cut the reply at the token limit (${reply.finishReason ?? ''})` }
          : { reason: 'done' },
      );
    }
    const results: ToolResultMessage[] = [];
    // The turn cap also caps the calls of one turn: a reply of 500 calls runs at most turnCap of them.
    for (const [position, request] of reply.toolCalls.entries()) {
      if (context.state.overCap !== undefined) return ended({ reason: 'sandbox-cap', detail: context.state.overCap });
      if (position < turnCap) {
        results.push(await handle(context, request, turns));
        continue;
      }
      callsOverCap += 1;
      results.push({ callId: request.id, name: request.name, content: `Error: not run; at most ${turnCap} tool calls are run in one turn.`, isError: true });
    }
    if (options.signal?.aborted === true) return undefined;
    if (context.state.overCap !== undefined) return ended({ reason: 'sandbox-cap', detail: context.state.overCap });
    messages.push({ role: 'tool', results });
  }
}

/**
 * The end of the session is a check point for R3, like a commit. Held: what cannot stay is put
 * back. Told: it is recorded as the attempt it is, and left to land.
 */
async function endCheck(context: LoopContext, turns: number): Promise<void> {
  const { arm, rulebook, workspace } = context.options;
  const { state } = context;
  const project = projectOnDisk(workspace.location.workTree);
  for (const finding of await decideTurnEnd({ rulebook, checkActions, state: state.session, project })) {
    const { path } = finding;
    const check: CheckResult = { rule: finding.rule, name: finding.name, actionIndex: 0, ok: false, detail: finding.detail };
    const record = {
      index: state.calls.length,
      turn: Math.max(1, turns),
      tool: END_CHECK_TOOL,
      input: capText(JSON.stringify({ path }), INPUT_CAP_BYTES),
      checks: [check],
      rule: check.rule,
      isError: false,
    };
    if (arm === 'told') {
      state.calls.push({ ...record, actions: [], decision: 'observed', detail: `${check.detail} The session ended with it.` });
      continue;
    }
    // A rule at warn puts nothing back: the module stays, recorded as warned, as the live hook's turn end does.
    if (byEnforcement(rulebook, [check]).warnings.length > 0) {
      state.calls.push({ ...record, actions: [], decision: 'warned', detail: `${check.detail} The session ended with it (warn level, not enforced).` });
      continue;
    }
    const next = nextSessionState(state.session, [{ type: 'delete', path }], project);
    const removed = workspace.deleteFile(path);
    if (!removed.ok) continue;
    state.session = next;
    state.timeline.push({ type: 'change' });
    state.calls.push({
      ...record,
      actions: [{ type: 'delete', path }],
      decision: 'reverted',
      detail: `${check.detail} The session ended with it, so the new module was removed.`,
    });
  }
}

/**
 * Whether the task got done: the task's hidden acceptance check added and run. A task without one
 * is not judged: the repository's own tests usually pass on the untouched tree, so they cannot say
 * the ticket was done. `cancelled` when the run was cancelled meanwhile.
 */
async function checkTask(options: LoopArmOptions): Promise<TaskCheck | undefined | 'cancelled'> {
  const acceptance = options.task.acceptance;
  if (acceptance === undefined) return undefined;
  const check = await options.workspace.runAcceptance(acceptance, options.signal);
  return options.signal?.aborted === true ? 'cancelled' : check;
}

/**
 * A session whose last reply passed its size cap is `unparseable`, too large, as in plan mode,
 * unless what the earlier calls landed already decided it: a landed violation still counts.
 */
function tooLargeVerdict(session: Session, decided: SessionVerdict): SessionVerdict {
  if (session.stop.reason !== 'too-large' || decided.verdict === 'violated' || decided.verdict === 'evaded' || decided.verdict === 'warned') return decided;
  const calls = session.calls.length;
  return {
    verdict: 'unparseable',
    reason: `too large: ${session.stop.detail ?? 'the reply passed its size cap'} (after ${calls} tool call${calls === 1 ? '' : 's'}).`,
  };
}

/** The session's abort controller: the run's cancellation or the session's timeout stops a call in flight. */
function sessionSignal(options: LoopArmOptions, timeoutMs: number): { controller: AbortController; timedOut: () => boolean; release: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onRunAbort = () => controller.abort();
  if (options.signal?.aborted === true) controller.abort();
  else options.signal?.addEventListener('abort', onRunAbort, { once: true });
  return {
    controller,
    timedOut: () => timedOut,
    release: () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onRunAbort);
    },
  };
}

/**
 * One arm of a loop-mode round: a bare model works in its own repository through tool calls until
 * it stops, hits the turn cap or the timeout. Every call that would change something is judged
 * before it applies, with the session so far replayed before it. Told: every call applies and is
 * recorded with its violations. Held: a violating call is not applied and answers with the rule's
 * reason; the model goes on; at the end, new modules still without their test are put back. Then
 * what landed is judged on the repository itself, and the repository's own tests say whether the
 * task got done.
 */
export async function runLoopArm(options: LoopArmOptions): Promise<ArmResult | undefined> {
  const { arm, rulebook, workspace } = options;
  const now = options.now ?? (() => Date.now());
  const timeoutMs = options.timeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const started = now();
  const session = sessionSignal(options, timeoutMs);
  const context: LoopContext = {
    options,
    required: countsAsRequiredRun(rulebook),
    secrets: options.secrets ?? [],
    now,
    signal: session.controller.signal,
    state: { calls: [], timeline: [], commands: [], commits: [], session: FRESH_SESSION },
    readCurrent: (path) => {
      const read = workspace.readFile(path);
      return read.ok ? read.content : undefined;
    },
  };
  let conversation: Conversation | undefined;
  try {
    conversation = await converse(context, { deadline: started + timeoutMs, timedOut: session.timedOut });
  } finally {
    session.release();
  }
  if (conversation === undefined) return undefined;
  const { stop, error, turns } = conversation;
  const { state } = context;
  if (stop.reason !== 'error') await endCheck(context, turns);

  const { landed, warned } = splitLanded(
    arm,
    rulebook,
    await judgeFinalState(workspace.location, workspace.baseCommit, rulebook, { timeline: state.timeline }),
  );
  // What the arm changed is read before the hidden acceptance tests are added: they are holdfast's, not the arm's.
  const { diff, changedPaths } = await workspace.diff();
  const taskDone = stop.reason === 'error' || stop.reason === 'sandbox-cap' ? undefined : await checkTask(options);
  if (taskDone === 'cancelled') return undefined;
  const record: Session = {
    mode: 'loop',
    calls: state.calls,
    turns,
    stop: stop as { reason: StopReason; detail?: string },
    usage: conversation.usage,
    wallMs: Math.max(0, now() - started),
    landed,
    ...(warned !== undefined ? { warned } : {}),
    ...(taskDone !== undefined ? { taskDone } : {}),
    ...(conversation.callsOverCap > 0 ? { callsOverCap: conversation.callsOverCap } : {}),
  };
  const decided = sandboxCapVerdict(
    record,
    tooLargeVerdict(record, sessionVerdict(arm, record, { paths: changedPaths.length, commits: state.commits.length })),
  );
  const { verdict, reason } = decided;
  const failed = error ?? ('error' in decided ? decided.error : undefined);
  return {
    arm,
    verdict,
    reason,
    ...(stop.reason === 'too-large' ? { parse: { kind: 'unparseable' as const, reason: `too large: ${stop.detail ?? ''}` } } : {}),
    mode: 'loop',
    ...(conversation.lastText.trim() !== '' ? { reasoning: conversation.lastText } : {}),
    actions: [],
    checks: [],
    ...(failed !== undefined ? { error: failed } : {}),
    sandbox: {
      isolation: workspace.isolation.kind,
      isolationDetail: workspace.isolation.detail,
      baseCommit: workspace.baseCommit,
      commits: state.commits,
      diff,
      changedPaths,
      commands: state.commands,
      refusedWrites: [],
    },
    session: record,
  };
}
