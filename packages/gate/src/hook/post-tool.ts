import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Action } from '@holdfast/core/contract';
import { toSlashes } from '../io/index.js';
import { appendAudit } from '../decide/index.js';
import type { HookAnswer } from '../decide/index.js';
import type { SafeParse } from './hook-event.js';
import type { ChangeCheck } from '../decide/index.js';
import { checkAfterCall, protectedPathList } from '../put-back/index.js';
import type { PostCheckOutcome, ProtectedPaths } from '../put-back/index.js';
import { changesOutsideCalls, ownPaths } from '../put-back/index.js';
import type { OutsideChanges } from '../put-back/index.js';
import { checkOutside, loadFlagged, outsideAuditFields, outsideLines, saveFlagged, sessionWasChecked } from '../put-back/index.js';
import type { OutsideFinding } from '../put-back/index.js';
import { loadSessionState } from '../state/index.js';
import { findSnapshotRecord } from '../state/index.js';
import { snapshotStorePath } from '../state/index.js';
import { beforeCallIdentity } from '../state/index.js';
import type { AgentAdapter, AgentHook } from './agent-adapter.js';
import { AGENT_ADAPTERS } from './agents.js';
import { safeParseJson } from '@holdfast/core/contract';
import { removeNewNestedRepositories } from '../put-back/index.js';
import { auditOutcome, finishUnfinishedCalls, judgeSessionCalls, revertReason } from '../put-back/index.js';
import type { AuditBase } from '../put-back/index.js';

/** The fields of an after-call event (PostToolUse, Claude Code's PostToolUseFailure, Gemini CLI's AfterTool) the after-the-fact check reads. */
interface PostToolEvent {
  readonly session_id: string;
  readonly cwd: string;
  readonly hook_event_name: string;
  readonly tool_name: string;
  /** Pairs the event with its PreToolUse; an agent that sends none (Gemini CLI) pairs it with the session's open snapshot. */
  readonly tool_use_id: string | undefined;
}

function safeParsePostToolEvent(text: string, agentName: string): SafeParse<PostToolEvent> {
  const json = safeParseJson(text);
  if (!json.ok) return { ok: false, error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} hook event on stdin is not JSON`, { cause: json.cause }) };
  const raw = json.value;
  const refuse = (field: string, expected: string): SafeParse<PostToolEvent> => ({
    ok: false,
    error: new InputError('E_HOOK_PAYLOAD', `the ${agentName} hook event is not a PostToolUse event (${field}: expected ${expected})`),
  });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refuse('event', 'a JSON object');
  const record = raw as Record<string, unknown>;
  const { session_id: session, cwd, hook_event_name: eventName, tool_name: tool, tool_use_id: toolUseId } = record;
  if (typeof session !== 'string' || session === '') return refuse('session_id', 'a non-empty string');
  if (typeof cwd !== 'string' || cwd === '') return refuse('cwd', 'a non-empty string');
  if (eventName !== undefined && typeof eventName !== 'string') return refuse('hook_event_name', 'a string');
  if (typeof tool !== 'string' || tool === '') return refuse('tool_name', 'a non-empty string');
  if (toolUseId !== undefined && toolUseId !== null && typeof toolUseId !== 'string') return refuse('tool_use_id', 'a string');
  return {
    ok: true,
    value: {
      session_id: session,
      cwd,
      hook_event_name: eventName ?? 'PostToolUse',
      tool_name: tool,
      tool_use_id: typeof toolUseId === 'string' && toolUseId !== '' ? toolUseId : undefined,
    },
  };
}

export interface PostToolUseOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  /** The rulebook judge, with the session replayed as for PreToolUse. */
  readonly judge: ChangeCheck;
  /** Paths (absolute, or relative to the project root) whose change is tampering whatever tool made it: the rulebook file and its rule code. */
  readonly protectedPaths?: ProtectedPaths;
  /** `--observe`: judge and record, never put anything back or tell the model. */
  readonly observe?: boolean;
  /** Told the changes that stayed, so the session state follows them (new files, tests since the last change). */
  readonly onKept?: (root: string, session: string, kept: readonly Action[]) => void;
  /**
   * Told once the call was checked, before its snapshot is dropped: `treeFound` gives the identity of
   * the work tree the call found (tree-identity.ts) when the call left it as it was, and is undefined
   * when the call changed files. The session binds the runs that passed to it.
   */
  readonly onChecked?: (root: string, session: string, treeFound: (() => string) | undefined) => void;
}

const SILENT: HookAnswer = { stdout: '', stderr: '', exitCode: 0 };

function uncheckedReason(why: string): string {
  return `holdfast gate: the gate could not check what this command changed (${why}). Its changes were not judged and nothing was put back. Check with \`git status\` and \`git diff\` that everything you changed follows the rulebook.`;
}

/**
 * Files changed while no checked call ran (see outside-check.ts): judged, the session's own files
 * that break a rule put back, every finding audited, the rest of the unexplained paths reported; and
 * the text that tells the model (undefined when there is nothing to say). A failure to judge them
 * falls back to the report alone and leaves the call's own check as it is.
 */
async function answerOutside(root: string, base: AuditBase, found: OutsideChanges | undefined, call: OutsideCall): Promise<string | undefined> {
  const session = base.session;
  // Judged only from the session's second check on: before its first, the last check may be another
  // session's, and what changed since is a person's work as much as anything.
  const checkedBefore = sessionWasChecked(root, session);
  const flagged = loadFlagged(root, session);
  saveFlagged(root, session, flagged);
  if (found === undefined) return undefined;
  let findings: OutsideFinding[] = [];
  try {
    if (checkedBefore)
      findings = await checkOutside({ root, session, judge: call.judge, found, changedByCall: call.touched, observe: call.observe, now: call.now });
  } catch {
    // judged again at the end of the turn; the paths are still reported below
  }
  const judgedPaths = new Set(findings.map((finding) => finding.path));
  const changed = new Set(found.changes.map((change) => change.path));
  saveFlagged(root, session, [
    ...flagged.filter((path) => !changed.has(path)),
    ...findings.filter((finding) => finding.remedy === 'left').map((finding) => finding.path),
  ]);
  const own = ownPaths(loadSessionState(root, session).state);
  const unexplained = [...changed].filter((path) => !own.has(path) && !judgedPaths.has(path));
  try {
    for (const finding of findings) await appendAudit(root, { ...base, ...outsideAuditFields(finding, call.observe) });
    if (unexplained.length > 0) {
      await appendAudit(root, {
        ...base,
        action: `changed outside any call: ${named(unexplained)}`.slice(0, 400),
        rule: 'INTERNAL',
        name: 'OUTSIDE',
        decision: 'observed',
        detail: `${call.observe ? 'observe mode: ' : ''}changed between the last checked call and this one by something other than the session's own tools; no rule refuses them`,
      });
    }
  } catch {
    // the audit log is unwritable; the model is still told
  }
  const lines: string[] = [];
  if (findings.length > 0) {
    lines.push('holdfast gate: files changed against the rulebook since the last call was checked, and this call did not make the change:');
    lines.push(...outsideLines(findings));
    if (findings.some((finding) => finding.remedy === 'left'))
      lines.push('Your turn cannot end while a file left in place breaks a rule: make it follow the rulebook, and stop any background process you started.');
  }
  if (unexplained.length > 0)
    lines.push(
      `holdfast gate: these files changed since the last shell call was checked, and no call of this session made the change: ${named(unexplained)}. A process a command left running in the background, or a person, changed them; no rule refuses them. If you started a background process, stop it.`,
    );
  return lines.length === 0 ? undefined : lines.join('\n');
}

function named(paths: readonly string[]): string {
  return `${paths.slice(0, 20).join(', ')}${paths.length > 20 ? ` and ${paths.length - 20} more` : ''}`;
}

interface OutsideCall {
  readonly judge: ChangeCheck;
  readonly touched: ReadonlySet<string>;
  readonly observe: boolean;
  readonly now: Date;
}

/**
 * Answers one PostToolUse event: the after-the-fact check of a call whose PreToolUse left a snapshot.
 * Never throws. A shell call with no snapshot to compare, or a check that fails, is reported to the
 * model and audited: the gate cannot vouch for what the call did.
 */
export async function answerPostToolUse(name: AgentHook, input: string, options: PostToolUseOptions): Promise<HookAnswer> {
  const agent: AgentAdapter = AGENT_ADAPTERS[name];
  const parsed = safeParsePostToolEvent(input, agent.title);
  if (!parsed.ok) return agent.tell('', uncheckedReason(parsed.error.message));
  const event = parsed.value;
  const root = agent.projectRoot(event.cwd, options.env);
  const base: AuditBase = { time: options.now().toISOString(), agent: agent.name, session: event.session_id, tool: event.tool_name };
  const unchecked = async (why: string): Promise<HookAnswer> => {
    try {
      await appendAudit(root, {
        ...base,
        action: `${event.tool_name} ${event.tool_use_id ?? ''}`.trim(),
        rule: 'INTERNAL',
        name: 'UNCHECKED',
        decision: 'deny',
        detail: why,
      });
    } catch {
      // the audit log is unwritable too; the model is still told
    }
    return options.observe === true ? SILENT : agent.tell(event.hook_event_name, uncheckedReason(why));
  };
  // What judging this session's recorded calls needs, for those left unfinished and for the fallback below.
  const sessionJudging = {
    root,
    base,
    judge: options.judge,
    protectedPaths: options.protectedPaths ?? [],
    observe: options.observe === true,
    now: options.now,
  };
  // A call of this session whose check was stopped or failed is judged first, against its own snapshot.
  let earlier: string | undefined;
  try {
    earlier = await finishUnfinishedCalls({ ...sessionJudging, atTurnEnd: false });
  } catch (error) {
    earlier = uncheckedReason((error as Error).message);
  }
  let open;
  try {
    open = findSnapshotRecord(root, event.session_id, event.tool_use_id);
  } catch (error) {
    return await unchecked(`the snapshot taken before it cannot be read: ${(error as Error).message}`);
  }
  if (open === undefined) {
    if (!agent.isShellTool(event.tool_name) && !agent.isOpaqueTool(event.tool_name))
      return earlier === undefined || options.observe === true ? SILENT : agent.tell(event.hook_event_name, earlier);
    const storeGone = !existsSync(snapshotStorePath(root));
    // The gate let this call's record go (a later snapshot covered it) or never took one: every snapshot
    // of the session it still holds is judged now, so what the call wrote since is put back all the same.
    let fallback: string | undefined;
    try {
      fallback = (await judgeSessionCalls(sessionJudging)).told;
    } catch (error) {
      fallback = uncheckedReason((error as Error).message);
    }
    const answer = await unchecked(
      storeGone
        ? "the gate's snapshot store .holdfast/snapshots.git is missing: no snapshot was taken before it ran, or it removed the store"
        : 'no snapshot was taken before it ran',
    );
    if (fallback === undefined || options.observe === true) return answer;
    const own = `holdfast gate: the gate holds no snapshot of this command's own (it let it go once a later snapshot covered it, or never took one); what changed since the snapshots it holds was judged above.`;
    return agent.tell(event.hook_event_name, [earlier, fallback, own].filter((part) => part !== undefined).join('\n'));
  }
  if ('readOnly' in open.record) {
    // The shell analysis found nothing this call could change; there is nothing to compare.
    open.close();
    return earlier === undefined || options.observe === true ? SILENT : agent.tell(event.hook_event_name, earlier);
  }
  // From here until the record is closed, a mark says this process checks the call: a later event
  // that finds the mark with this process gone (killed mid put-back) judges the call again.
  open.checking();
  let finished = false;
  let left: string | undefined;
  const before = open.record;
  let found: OutsideChanges | undefined;
  try {
    found = changesOutsideCalls(root, before);
  } catch {
    found = undefined;
  }
  const observe = options.observe === true;
  const check = () =>
    checkAfterCall({
      root,
      session: event.session_id,
      before,
      judge: options.judge,
      protectedPaths: async () => (await protectedPathList(options.protectedPaths)).map((path) => (isAbsolute(path) ? toSlashes(relative(root, path)) : path)),
      observe,
      now: options.now,
    });
  try {
    let outcome: PostCheckOutcome;
    let removedRepos: string[] = [];
    try {
      outcome = await check();
    } catch (error) {
      // Undecided is put back (issue 27): a repository the call created inside the project is removed, then the rest is judged.
      removedRepos = observe ? [] : removeNewNestedRepositories(root, before);
      if (removedRepos.length === 0) throw error;
      outcome = await check();
    }
    const removedText =
      removedRepos.length === 0
        ? undefined
        : `holdfast gate: ${removedRepos.map((folder) => `${folder}/`).join(', ')}: removed. This command created ${removedRepos.length === 1 ? 'a git repository' : 'git repositories'} inside the project, which the gate cannot look into, so ${removedRepos.length === 1 ? 'it was' : 'they were'} put back (deleted). Make those files without a repository of their own.`;
    // A command that rewrote or removed the session record: put back from its mirror by the read (session-state.ts).
    const record = observe ? undefined : loadSessionState(root, event.session_id).warning;
    const recordText = record === undefined ? undefined : `holdfast gate: GATE TAMPER: ${record}. holdfast's own state is not the agent's to change.`;
    if (recordText !== undefined)
      await appendAudit(root, {
        ...base,
        action: `${event.tool_name} ${event.tool_use_id ?? ''}`.trim(),
        rule: 'GATE',
        name: 'TAMPER',
        decision: 'reverted',
        detail: recordText,
      });
    options.onKept?.(root, event.session_id, outcome.kept);
    options.onChecked?.(root, event.session_id, outcome.touched.length === 0 && removedRepos.length === 0 ? () => beforeCallIdentity(root, before) : undefined);
    // What changed between calls never stands in the way of this call's own check.
    const outside = await answerOutside(root, base, found, { judge: options.judge, touched: new Set(outcome.touched), observe, now: options.now() }).catch(
      () => undefined,
    );
    const tell = (reason: string | undefined): HookAnswer => {
      const text = [observe ? undefined : earlier, removedText, recordText, reason, observe ? undefined : outside]
        .filter((part) => part !== undefined)
        .join('\n');
      return text === '' ? SILENT : agent.tell(event.hook_event_name, text);
    };
    if (removedRepos.length > 0) {
      await appendAudit(root, {
        ...base,
        action: `${event.tool_name} ${event.tool_use_id ?? ''}`.trim(),
        rule: 'GATE',
        name: 'UNDECIDED',
        decision: 'reverted',
        detail: removedText ?? '',
      });
    }
    finished = true;
    left = outcome.leftIndex;
    if (outcome.reverted.length === 0 && outcome.refs.length === 0 && outcome.stillStaged.length === 0) return tell(undefined);
    await auditOutcome(root, base, outcome);
    return outcome.observed ? SILENT : tell(revertReason(outcome));
  } catch (error) {
    const why = `the check after it failed: ${(error as Error).message}`;
    // The record stays open, marked failed: the next event of the session judges the call again.
    if (!finished) open.failed(why);
    return await unchecked(`${why}. The gate judges it again at the next tool call or the end of the turn`);
  } finally {
    // Checked, not closed: a process inside the call may have sent this after-call, so the record stays
    // until a later snapshot of the gate's own covers it (put-back/checked-calls.ts).
    if (finished) open.checkedNow(left);
  }
}
