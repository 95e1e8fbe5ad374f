import { isAbsolute, join, resolve } from 'node:path';
import { consumeAllowance } from '../state/index.js';
import { appendAudit, auditActionText } from '../decide/index.js';
import type { AuditEntry } from '../decide/index.js';
import { ALLOW, internalErrorReason, reasonOf, warningOf } from '../decide/index.js';
import type { HookAnswer } from '../decide/index.js';
import { readPreToolUse, readStopEvent, safeParseHookEvent } from './hook-event.js';
import type { HookEvent } from './hook-event.js';
import type { HookOptions } from './hook-options.js';
import type { AgentAdapter, AgentHook } from './agent-adapter.js';
import { AGENT_ADAPTERS } from './agents.js';
import { UNCONFIRMED, decideToolCall, decideTurnEnd, nextSessionState, projectOnDisk, replayedRound, withFailedRuns, withPassedRuns } from '../decide/index.js';
import { workTreeIdentity } from '../state/index.js';
import { requiredCommandTest, rerunTimeoutMs } from '../decide/index.js';
import type { ConfirmRun } from '../exec/index.js';
import type { SessionRun } from '../state/index.js';
import { checkChangesWith } from '../decide/index.js';
import { decideAtTurnEnd, outsideAuditFields, outsideLines, sessionWasChecked } from '../put-back/index.js';
import type { OutsideFinding } from '../put-back/index.js';
import type { ChangeCheck } from '../decide/index.js';
import { postCheckAvailable } from '../io/index.js';
import { beforeReadOnlyShellCall, beforeShellCall, callWasCovered, findSnapshotRecord } from '../state/index.js';
import type { SnapshotRecord } from '../state/index.js';
import type { AddedIndex } from '../state/index.js';
import { betweenCallsReason, putBackGuardedAtTurnEnd } from '../state/index.js';
import { putBackGuardedAtCall, putBackRefsBetweenCalls, refsBetweenCallsReason } from '../put-back/index.js';
import { answerPostToolUse } from './post-tool.js';
import { coverCheckedCalls, finishUnfinishedCalls, judgeSessionCalls } from '../put-back/index.js';
import { describePathNotes, projectRoot, resolveActionPaths } from '../io/index.js';
import { loadRulebookCached, shippedRulebookPath } from '../decide/index.js';
import { HOLDFAST_DIR, loadSessionState, peekSessionState, saveSessionState } from '../state/index.js';
import { noteIgnoreFileWrites, noteWritesAllowedByPerson } from '../state/index.js';
import { protectedPlaces, tamperFindings } from '../decide/index.js';
import type { GateFinding } from '../decide/index.js';
import type { ShellOutcome } from './shell-outcome.js';
import { boundStopDenials, endTurnMessage, resetStopDenials } from './stop-denials.js';
import type { TurnEnd } from './stop-denials.js';
import type { Rulebook } from '@holdfast/core/contract';
import { answerOrderPatterns, byEnforcement, mayBeRequiredRun, ruleCodeFiles } from '@holdfast/core/rules';
import type { RulesEngine } from '../decide/index.js';
import { readTextFromDisk } from '../io/index.js';
import type { ReadText } from '../io/index.js';
import type { ToolCall } from '../decide/index.js';

export type { HookOptions } from './hook-options.js';
export type { AgentHook } from './agent-adapter.js';

function readToolCall(agent: AgentAdapter, event: HookEvent, env: NodeJS.ProcessEnv, readText: ReadText): ToolCall {
  const parsed = readPreToolUse(event.raw, agent.title);
  if (!parsed.ok) throw parsed.error;
  return agent.readToolCall(parsed.value, agent.projectRoot(parsed.value.cwd, env), readText);
}

function rulebookFileOf(options: HookOptions, root: string): string | undefined {
  return options.rulebookFile === undefined || isAbsolute(options.rulebookFile) ? options.rulebookFile : resolve(root, options.rulebookFile);
}

type AuditFields = Omit<AuditEntry, 'time' | 'agent' | 'session' | 'tool' | 'action'>;

function auditCall(call: ToolCall, now: Date, fields: AuditFields): Promise<void> {
  return appendAudit(call.cwd, {
    time: now.toISOString(),
    agent: call.agent,
    session: call.session,
    tool: call.tool,
    action: auditActionText(call.actions),
    ...fields,
  });
}

function failureFields(failures: readonly GateFinding[]): Pick<AuditEntry, 'rule' | 'name' | 'rules'> {
  const rules = [...new Set(failures.map((failure) => failure.rule))];
  return { rule: failures[0]?.rule ?? null, name: failures[0]?.name, rules: rules.length > 1 ? rules : undefined };
}

/**
 * Answers one agent hook event, whatever it is: PreToolUse (judge the call before it runs),
 * PostToolUse (judge what it changed), Stop (the session's modules without tests keep the agent
 * working). Other events pass. Never throws: anything that goes wrong refuses, with a message that
 * says so, because a crashed hook would let the call through.
 */
export async function answerAgentHook(name: AgentHook, input: string, options: HookOptions): Promise<HookAnswer> {
  const agent = AGENT_ADAPTERS[name];
  const read = safeParseHookEvent(input, agent.title);
  const parsed = !read.ok || agent.readPayload === undefined ? read : agent.readPayload(read.value.raw);
  if (!parsed.ok) return options.observe === true ? ALLOW : agent.deny(internalErrorReason(parsed.error));
  const step = parsed.value.name === undefined ? agent.unnamedStep : agent.steps[parsed.value.name];
  switch (step) {
    case 'before-call':
      return answerBeforeCall(agent, parsed.value, options);
    case 'after-call':
      // The after-call check reads the event again: in the flow's field names when the agent has its own.
      return answerAfterCall(agent, agent.readPayload === undefined ? input : JSON.stringify(parsed.value.raw), parsed.value, options);
    case 'turn-end':
      return answerBoundedStop(agent, parsed.value, options);
    default:
      return ALLOW;
  }
}

async function answerBeforeCall(agent: AgentAdapter, event: HookEvent, options: HookOptions): Promise<HookAnswer> {
  const readText = options.readText ?? readTextFromDisk;
  let call: ToolCall | undefined;
  // The work tree a commit's decision added to an index, handed to this call's snapshot (one `git add` fewer).
  let added: AddedIndex | undefined;
  try {
    call = readToolCall(agent, event, options.env, readText);
    if (call.actions.length === 0 && call.bypasses.length === 0 && call.unknownEffects.length === 0) return ALLOW;
    const project = projectRoot(call.cwd, { caseInsensitive: options.caseInsensitive });
    const { actions, notes } = resolveActionPaths(call.actions, project);
    const engine = await options.loadEngine();
    const file = rulebookFileOf(options, call.cwd);
    const rulebook = await loadRulebookCached(call.cwd, file, engine);
    if (options.observe !== true) {
      // A call of this session whose check was stopped or failed is judged first: this call must not be built on it.
      const earlier = await finishUnfinishedCalls({
        root: call.cwd,
        base: { time: options.now().toISOString(), agent: call.agent, session: call.session, tool: call.tool },
        judge: checksOf({ rulebook, checkActions: engine.checkActions }).workTree,
        protectedPaths: [file ?? shippedRulebookPath(), ...ruleCodeFiles(rulebook)],
        observe: false,
        now: options.now,
        atTurnEnd: false,
      });
      if (earlier !== undefined) return agent.deny(`${earlier}\nThis call was not run; run it again.`);
    }
    // A "before" naming a call the gate already checked is a replay (an agent never reuses a call's id):
    // before its snapshot is taken again, every snapshot the session holds is judged, so no write since
    // the first one becomes part of the new starting point.
    const shell = agent.isShellTool(call.tool) || agent.isOpaqueTool(call.tool);
    if (shell && replaysCheckedCall(call.cwd, call.session, toolUseIdOf(event))) {
      const replayed = await judgeSessionCalls({
        root: call.cwd,
        base: { time: options.now().toISOString(), agent: call.agent, session: call.session, tool: call.tool },
        judge: blockingJudge(rulebook, engine),
        protectedPaths: [file ?? shippedRulebookPath(), ...ruleCodeFiles(rulebook)],
        observe: options.observe === true,
        now: options.now,
      });
      if (replayed.told !== undefined && options.observe !== true) return agent.deny(`${replayed.told}\nThis call was not run; run it again.`);
    }
    // Refs moved outside git since the last event (a ref file written directly) are judged, and put back before this call's snapshot.
    const refsPutBack = await putBackRefsBetweenCalls({
      root: call.cwd,
      rules: async () => ({ rulebook, checkActions: engine.checkActions }),
      observe: options.observe === true,
    });
    if (refsPutBack.length > 0) {
      const reason = refsBetweenCallsReason(refsPutBack);
      await auditCall(call, options.now(), { rule: 'GATE', name: 'REF', decision: options.observe === true ? 'observed' : 'deny', detail: reason });
      if (options.observe !== true) return agent.deny(`${reason}\nThis call was not run; run it again.`);
    }
    const loaded = loadSessionState(call.cwd, call.session);
    const places = protectedPlaces(project, { rulebookFile: file ?? shippedRulebookPath(), home: options.env.HOME, ruleCode: ruleCodeFiles(rulebook) });
    const judgement = await decideToolCall(
      { ...call, actions },
      {
        rulebook,
        checkActions: engine.checkActions,
        state: loaded.state,
        project: projectOnDisk(project.realRoot),
        gateFindings: tamperFindings(actions, project, places),
        committedTree: () => workTreeIdentity(call!.cwd, (kept) => (added = kept)),
      },
    );
    const notesText = [describePathNotes(notes), loaded.warning === undefined ? '' : `(${loaded.warning})`].filter((note) => note !== '');
    const pendingText =
      judgement.pending.length === 0 ? '' : ` Pending until the commit or the end of the turn: ${judgement.pending.map((finding) => finding.detail).join(' ')}`;
    const now = options.now();
    const judged = { ...call, actions };
    // A shell call's effects are judged again after it ran: the snapshot it is compared with is taken
    // now, and a call that cannot be checked afterwards is not let through blind.
    if (shell && options.observe !== true && call.unknownEffects.length > 0 && !postCheckAvailable(join(call.cwd, HOLDFAST_DIR, 'cache'))) {
      const reason =
        'holdfast: this call changes files in ways that can only be judged after it runs, and the after-the-fact check needs git 2.26 or newer, which this machine lacks. Make the change with the file-editing tools instead.';
      await auditCall({ ...call, actions }, now, { rule: 'INTERNAL', name: 'UNCHECKABLE', decision: 'deny', detail: reason });
      return agent.deny(reason);
    }
    // A command the analysis found read-only (read-only programs, no redirection into a file, no
    // commit) cannot change what the post-check compares: it leaves a marker, not a snapshot.
    const readOnly = call.unknownEffects.length === 0 && call.bypasses.length === 0 && actions.every((action) => action.type === 'run');
    // The guarded files a process changed between calls, put back by the snapshot (guarded-baseline.ts).
    // A call without a snapshot still compares the guarded files, by their identities (guarded-stat-check.ts).
    let taken: SnapshotRecord | undefined;
    const snapshot = (): readonly string[] => {
      if (shell && !readOnly) {
        taken = beforeShellCall(call!.cwd, call!.session, toolUseIdOf(event), options.now, added);
        return taken.betweenCalls ?? [];
      }
      if (shell) beforeReadOnlyShellCall(call!.cwd, call!.session, toolUseIdOf(event), options.now);
      return putBackGuardedAtCall(call!.cwd, options.now(), options.observe === true);
    };
    // The session's checked calls this snapshot covers are let go (put-back/checked-calls.ts); never a reason to refuse.
    const cover = async (): Promise<void> => {
      if (taken === undefined) return;
      await coverCheckedCalls({ root: call!.cwd, session: call!.session, snapshot: taken, judge: blockingJudge(rulebook, engine) }).catch(() => 0);
    };
    if (options.observe === true) {
      saveSessionState(call.cwd, call.session, judgement.next);
      noteIgnoreFileWrites(call.cwd, call.session, actions);
      try {
        snapshot();
      } catch {
        // observe mode never blocks; the post-check will say the call could not be checked
      }
      await cover();
      const denied = judgement.decision === 'deny' ? judgement.failures : [];
      await auditCall(judged, now, {
        ...failureFields(denied),
        decision: 'observed',
        verdict: judgement.decision,
        results: judgement.verdicts,
        detail: (judgement.decision === 'deny' ? reasonOf(judgement.failures, notesText) : judgement.detail) + pendingText,
      });
      return ALLOW;
    }
    if (judgement.decision === 'deny') {
      const reason = reasonOf(judgement.failures, notesText);
      const allowance = consumeAllowance(
        call.cwd,
        judgement.failures.map((failure) => failure.rule),
        now,
      );
      if (allowance !== undefined) {
        snapshot();
        await cover();
        saveSessionState(call.cwd, call.session, judgement.next);
        noteIgnoreFileWrites(call.cwd, call.session, actions);
        noteWritesAllowedByPerson(call.cwd, call.session, actions);
        await auditCall(judged, now, { ...failureFields(judgement.failures), decision: 'allowed-by-person', reason: allowance.reason, detail: reason });
        return ALLOW;
      }
      const warned = judgement.warnings.length === 0 ? '' : `\n${warningOf(judgement.warnings)}`;
      await auditCall(judged, now, { ...failureFields(judgement.failures), decision: 'deny', detail: reason + warned });
      return agent.deny(reason + warned);
    }
    const putBack = snapshot();
    await cover();
    if (putBack.length > 0) {
      const reason = `${betweenCallsReason(putBack)} This call was not run; run it again.`;
      await auditCall(judged, now, { rule: 'GATE', name: 'TAMPER', decision: 'deny', detail: reason });
      return agent.deny(reason);
    }
    saveSessionState(call.cwd, call.session, judgement.next);
    noteIgnoreFileWrites(call.cwd, call.session, actions);
    if (judgement.warnings.length > 0) {
      // Rules at warn: the call goes ahead, the agent reads the rule, and the audit counts it as warned.
      const message = warningOf(judgement.warnings);
      await auditCall(judged, now, { ...failureFields(judgement.warnings), decision: 'warned', detail: [message, ...notesText].join(' ') + pendingText });
      return agent.warn(message);
    }
    await auditCall(judged, now, { rule: null, decision: 'allow', detail: [judgement.detail, ...notesText].join(' ') + pendingText });
    return ALLOW;
  } catch (error) {
    const reason = internalErrorReason(error);
    if (call !== undefined) {
      try {
        await auditCall(call, options.now(), { rule: 'INTERNAL', name: 'ERROR', decision: options.observe === true ? 'observed' : 'deny', detail: reason });
      } catch {
        // The audit log is unwritable too; the refusal itself still goes out.
      }
    }
    return options.observe === true ? ALLOW : agent.deny(reason);
  } finally {
    added?.drop();
  }
}

/** Stop, with the number of denials in a row bounded (see stop-denials.ts); observe mode never denies. */
async function answerBoundedStop(agent: AgentAdapter, event: HookEvent, options: HookOptions): Promise<HookAnswer> {
  const held = await answerStop(agent, event, options);
  const { session_id: session, cwd } = event.raw;
  if (options.observe === true || typeof session !== 'string' || typeof cwd !== 'string') return held === undefined ? ALLOW : agent.hold(held);
  const root = agent.projectRoot(cwd, options.env);
  if (held === undefined) {
    try {
      resetStopDenials(root, session);
    } catch {
      // a count that cannot be removed reads as the bound reached next time: the turn ends sooner, never later
    }
    return ALLOW;
  }
  let bounded: TurnEnd;
  try {
    bounded = boundStopDenials(root, session, held);
  } catch {
    // Denials that cannot be counted cannot be bounded: the turn ends rather than risk a loop.
    bounded = { kind: 'end', message: endTurnMessage(held, 1) };
  }
  return bounded.kind === 'hold' ? agent.hold(bounded.reason) : agent.end(bounded.message);
}

function turnEndReason(findings: readonly GateFinding[]): string {
  const lines = [
    `holdfast: the turn cannot end yet: ${findings.length === 1 ? 'a new module this session created has' : `${findings.length} new modules this session created have`} no test.`,
    ...findings.map((finding) => `- ${finding.detail}`),
    'Write each test next to its module (or delete a module that is not needed), then finish.',
  ];
  return lines.join('\n');
}

/**
 * Stop: R3 is judged over the session. Every module the session created without its test sends the
 * agent back to work with the list (the reason returned; undefined lets the turn end). Claude Code ends the turn anyway after several blocks in a row;
 * the modules stay refused at the commit, by the agent gate and by the git hook.
 */
async function answerStop(agent: AgentAdapter, event: HookEvent, options: HookOptions): Promise<string | undefined> {
  const base = { agent: agent.name, tool: 'Stop', event: 'Stop', action: 'end of turn' };
  let root: string | undefined;
  let session = 'unknown';
  try {
    const parsed = readStopEvent(event.raw, agent.title);
    if (!parsed.ok) throw parsed.error;
    root = agent.projectRoot(parsed.value.cwd, options.env);
    session = parsed.value.session_id;
    const at = root;
    // Every call of the session whose check never finished is judged before the turn may end.
    const earlier = await finishUnfinishedCalls({
      root,
      base: { time: options.now().toISOString(), agent: agent.name, session, tool: 'Stop' },
      judge: async (changes) => {
        const engine = await options.loadEngine();
        const rulebook = await loadRulebookCached(at, rulebookFileOf(options, at), engine);
        return checksOf({ rulebook, checkActions: engine.checkActions }).workTree(changes);
      },
      protectedPaths: async () => {
        const rulebook = await loadRulebookCached(at, rulebookFileOf(options, at), await options.loadEngine());
        return [rulebookFileOf(options, at) ?? shippedRulebookPath(), ...ruleCodeFiles(rulebook)];
      },
      observe: options.observe === true,
      now: options.now,
      atTurnEnd: true,
    });
    if (earlier !== undefined && options.observe !== true) return earlier;
    const loaded = loadSessionState(root, session);
    const checked = sessionWasChecked(root, session);
    const observe = options.observe === true;
    const guardedPutBack = checked ? putBackGuardedAtTurnEnd(root, options.now(), observe) : [];
    for (const path of guardedPutBack) {
      const detail = `changed between calls and ${observe ? 'left (observe mode)' : 'put back'}: ${path}`;
      await appendAudit(root, {
        ...base,
        time: options.now().toISOString(),
        session,
        rule: 'GATE',
        name: 'TAMPER',
        decision: observe ? 'observed' : 'deny',
        detail,
      });
    }
    if (guardedPutBack.length > 0 && !observe) return betweenCallsReason(guardedPutBack);
    const refsPutBack = checked
      ? await putBackRefsBetweenCalls({
          root,
          rules: async () => {
            const engine = await options.loadEngine();
            return { rulebook: await loadRulebookCached(at, rulebookFileOf(options, at), engine), checkActions: engine.checkActions };
          },
          observe,
        })
      : [];
    if (refsPutBack.length > 0) {
      const reason = refsBetweenCallsReason(refsPutBack);
      await appendAudit(root, {
        ...base,
        time: options.now().toISOString(),
        session,
        rule: 'GATE',
        name: 'REF',
        decision: observe ? 'observed' : 'deny',
        detail: reason,
      });
      if (!observe) return reason;
    }
    if (loaded.state.created.length === 0 && !checked) return undefined;
    const project = projectRoot(root, { caseInsensitive: options.caseInsensitive });
    const engine = await options.loadEngine();
    const rulebook = await loadRulebookCached(root, rulebookFileOf(options, root), engine);
    const time = options.now().toISOString();
    const outside = checked
      ? await decideAtTurnEnd(root, session, checksOf({ rulebook, checkActions: engine.checkActions }).workTree, {
          observe: options.observe === true,
          now: options.now(),
        })
      : [];
    for (const finding of outside) await appendAudit(root, { ...base, time, session, ...outsideAuditFields(finding, options.observe === true) });
    const judgedAtEnd =
      loaded.state.created.length === 0
        ? []
        : await decideTurnEnd({ rulebook, checkActions: engine.checkActions, state: loaded.state, project: projectOnDisk(project.realRoot) });
    // A module without its test under a rule at warn ends the turn anyway; the audit records it as warned.
    const { blocking: findings, warnings } = byEnforcement(rulebook, judgedAtEnd);
    if (warnings.length > 0 && options.observe !== true)
      await appendAudit(root, { ...base, time, session, ...failureFields(warnings), decision: 'warned', detail: warningOf(warnings) });
    if (findings.length === 0 && outside.length === 0) {
      if (loaded.state.created.length === 0) return undefined;
      await appendAudit(root, {
        ...base,
        time,
        session,
        rule: null,
        decision: options.observe === true ? 'observed' : 'allow',
        verdict: options.observe === true ? 'allow' : undefined,
        detail: 'every module the session created has its test.',
      });
      return undefined;
    }
    const reason = [findings.length === 0 ? undefined : turnEndReason(findings), outside.length === 0 ? undefined : outsideTurnEndReason(outside)]
      .filter((part) => part !== undefined)
      .join('\n');
    const again = parsed.value.stop_hook_active ? ' (the agent was already sent back once this turn)' : '';
    if (options.observe === true) {
      if (findings.length === 0) return undefined;
      await appendAudit(root, {
        ...base,
        time,
        session,
        ...failureFields(findings),
        decision: 'observed',
        verdict: 'deny',
        results: findings.map((finding) => ({ ...finding, ok: false })),
        detail: reason + again,
      });
      return undefined;
    }
    if (findings.length > 0) await appendAudit(root, { ...base, time, session, ...failureFields(findings), decision: 'deny', detail: reason + again });
    return reason;
  } catch (error) {
    const reason = internalErrorReason(error, 'the turn cannot end until it works again');
    if (root !== undefined) {
      try {
        await appendAudit(root, {
          ...base,
          time: options.now().toISOString(),
          session,
          rule: 'INTERNAL',
          name: 'ERROR',
          decision: options.observe === true ? 'observed' : 'deny',
          detail: reason,
        });
      } catch {
        // nothing more to do
      }
    }
    return options.observe === true ? undefined : reason;
  }
}

function outsideTurnEndReason(findings: readonly OutsideFinding[]): string {
  const left = findings.some((finding) => finding.remedy === 'left');
  return [
    `holdfast: ${left ? 'the turn cannot end yet: ' : ''}files changed against the rulebook after the last checked call, by something other than this session's tools (a process a command left running, or a person):`,
    ...outsideLines(findings),
    left
      ? 'Make each file left in place follow the rulebook (or remove it), stop any background process you started, then finish.'
      : 'Check that no process you started is still writing, then finish.',
  ].join('\n');
}

type ChangeCheckSetup = Omit<Parameters<typeof checkChangesWith>[0], 'replay' | 'skipTimings'>;

/** The judges of a commit and of work-tree changes (R3 is judged over the session: at the commit and the end of the turn). */
function checksOf(options: ChangeCheckSetup): { workTree: ChangeCheck; commit: ChangeCheck } {
  const base = { ...options, replay: (at: string, session: string) => replayedRound(loadSessionState(at, session).state) };
  return { workTree: checkChangesWith({ ...base, skipTimings: ['change'] }), commit: checkChangesWith(base) };
}

/** The session's judge of work-tree changes, rules at `block` only: what would be put back. */
function blockingJudge(rulebook: Rulebook, engine: RulesEngine): ChangeCheck {
  const workTree = checksOf({ rulebook, checkActions: engine.checkActions }).workTree;
  return async (changes) => byEnforcement(rulebook, await workTree(changes)).blocking;
}

/** Whether a "before" names a call whose snapshot the gate already checked (held, or let go once covered). */
function replaysCheckedCall(root: string, session: string, toolUseId: string | undefined): boolean {
  if (toolUseId === undefined) return false;
  if (callWasCovered(root, toolUseId)) return true;
  try {
    return findSnapshotRecord(root, session, toolUseId)?.checked === true;
  } catch {
    return false;
  }
}

function toolUseIdOf(event: HookEvent): string | undefined {
  const id = event.raw.tool_use_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * PostToolUse (and Claude Code's PostToolUseFailure): what a shell call really changed, judged after
 * it ran against the snapshot its PreToolUse took; what breaks a rule is put back. R3 is judged over
 * the session (at the commit and the end of the turn), so a work-tree change is not refused for a
 * test the agent has yet to write; a commit the call made is judged whole. The session state follows
 * what stayed, and a failing call that was the test run no longer counts as one.
 */
async function answerAfterCall(agent: AgentAdapter, input: string, event: HookEvent, options: HookOptions): Promise<HookAnswer> {
  const cwd = typeof event.raw.cwd === 'string' ? event.raw.cwd : '';
  const root = agent.projectRoot(cwd, options.env);
  const file = rulebookFileOf(options, root);
  let loaded: Promise<{ rulebook: Rulebook; engine: RulesEngine }> | undefined;
  const rulebookOnce = () =>
    (loaded ??= (async () => {
      const engine = await options.loadEngine();
      return { rulebook: await loadRulebookCached(root, file, engine), engine };
    })());
  const loadJudges = async () => {
    const { rulebook, engine } = await rulebookOnce();
    return checksOf({ rulebook, checkActions: engine.checkActions });
  };
  let judges: Promise<{ workTree: ChangeCheck; commit: ChangeCheck }> | undefined;
  // What the call changed against rules at warn stays in place; the model is told once the check is done.
  const warnings: GateFinding[] = [];
  const judge: ChangeCheck = async (changes) => {
    judges ??= loadJudges();
    const loaded = await judges;
    const failures = await (changes.round === 'commit' ? loaded.commit : loaded.workTree)(changes);
    const split = byEnforcement((await rulebookOnce()).rulebook, failures);
    warnings.push(...split.warnings);
    return split.blocking;
  };
  const shellSession =
    typeof event.raw.session_id === 'string' && typeof event.raw.tool_name === 'string' && agent.isShellTool(event.raw.tool_name)
      ? event.raw.session_id
      : undefined;
  let checked = false;
  let recorded: Promise<void> | undefined;
  const rulebook = async () => (await rulebookOnce()).rulebook;
  const record = (treeFound: (() => string) | undefined, unboundWhy?: string) =>
    recordShellOutcome(root, shellSession as string, event, agent.shellOutcome(event), treeFound, unboundWhy, options.confirmRun, rulebook);
  try {
    const bind = shellSession === undefined ? false : await runsNeedTheirTree(root, shellSession, event, rulebook);
    const answer = await answerPostToolUse(agent.name, input, {
      env: options.env,
      now: options.now,
      judge,
      // The rulebook and the rule code it names; read only when the call changed something.
      protectedPaths: async () => [file ?? shippedRulebookPath(), ...ruleCodeFiles((await rulebookOnce()).rulebook)],
      ...(options.observe === true ? { observe: true } : {}),
      onKept: (at, session, kept) => {
        if (kept.length === 0) return;
        const loaded = loadSessionState(at, session);
        saveSessionState(at, session, nextSessionState(loaded.state, kept, projectOnDisk(at)));
      },
      onChecked: (_at, _session, treeFound) => {
        checked = true;
        if (shellSession !== undefined) recorded = bind ? record(treeFound) : record(undefined, NOT_REQUIRED);
      },
    });
    if (shellSession !== undefined && !checked) recorded = record(undefined, 'the gate could not check what its call changed');
    await recorded;
    if (warnings.length === 0 || options.observe === true) return answer;
    const message = warningOf(warnings);
    if (typeof event.raw.session_id === 'string')
      await appendAudit(root, {
        time: options.now().toISOString(),
        agent: agent.name,
        session: event.raw.session_id,
        tool: typeof event.raw.tool_name === 'string' ? event.raw.tool_name : 'unknown',
        event: event.name,
        action: 'what the call changed',
        ...failureFields(warnings),
        decision: 'warned',
        detail: message,
      });
    // A put-back already tells the model; the warning goes with it.
    if (answer.stdout === '' && answer.exitCode === 0) return agent.tell(event.name ?? '', message);
    return answer;
  } catch (error) {
    return options.observe === true ? ALLOW : agent.tell(event.name ?? '', internalErrorReason(error, 'the change this tool call made is not judged'));
  }
}

/** Why a passing run that no rule can count is not bound to a tree (it would cost two git processes for nothing). */
const NOT_REQUIRED = 'no rule of the rulebook counted it when it ran (no order or requires rule names it)';

/** The command text of a shell call's event (Codex may send the argv form, `["bash", "-lc", "npm test"]`). */
function shellCommandOf(event: HookEvent): string | undefined {
  const input = event.raw.tool_input;
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).command : undefined;
  return Array.isArray(given) && given.every((word) => typeof word === 'string') ? given.join(' ') : typeof given === 'string' ? given : undefined;
}

/**
 * Whether the hook after a shell call must bind the call's runs to the tree they ran on: only when one
 * of them may count for a rule about what passes before a commit (mayBeRequiredRun, no RE2 loaded).
 * Then the order rules' patterns are answered for them here (answerOrderPatterns), so the commit does
 * not load RE2. A rulebook that cannot be read binds them, as before.
 */
async function runsNeedTheirTree(root: string, session: string, event: HookEvent, rulebook: () => Promise<Rulebook>): Promise<boolean> {
  const command = shellCommandOf(event);
  if (command === undefined) return false;
  // A look that puts nothing back: the check after the call must still find a record the call changed.
  const open = peekSessionState(root, session).runs.filter((run) => command.includes(run.cmd) && run.failed === undefined && run.tree === undefined);
  if (open.length === 0) return false;
  try {
    const book = await rulebook();
    const bind = open.some((run) => mayBeRequiredRun(book, run.cmd));
    if (bind)
      answerOrderPatterns(
        book,
        open.map((run) => run.cmd),
      );
    return bind;
  } catch {
    return true;
  }
}

/**
 * How a shell call ended, into the session's runs: a call that failed makes its commands failed runs
 * (a test run among them did not pass); one that passed binds them to the tree it found, when it left
 * that tree as it was (`treeFound`), so a commit counts them only for exactly that tree.
 */
async function recordShellOutcome(
  root: string,
  session: string,
  event: HookEvent,
  outcome: ShellOutcome,
  treeFound: (() => string) | undefined,
  unboundWhy: string | undefined,
  confirmRun: ConfirmRun | undefined,
  rulebook: () => Promise<Rulebook>,
): Promise<void> {
  const command = shellCommandOf(event);
  if (command === undefined) return;
  const { state } = loadSessionState(root, session);
  const binding = state.runs.filter((run) => command.includes(run.cmd) && run.failed === undefined && run.tree === undefined);
  if (binding.length === 0) return;
  if (outcome.failed) return saveSessionState(root, session, withFailedRuns(state, command, outcome.ending));
  let tree: string | undefined;
  let why = unboundWhy;
  try {
    tree = treeFound?.();
  } catch (error) {
    why = `the tree it ran on could not be read (${(error as Error).message})`;
  }
  const unconfirmed = tree === undefined || confirmRun === undefined ? undefined : await confirmedRuns(root, binding, tree, confirmRun, await rulebook());
  const latest = unconfirmed === undefined ? state : loadSessionState(root, session).state;
  saveSessionState(root, session, withPassedRuns(latest, command, tree, why, unconfirmed));
}

/**
 * The runs among a call's passes that the gate's own run did not confirm, each with why: under
 * exec a pass is the agent's word until the broker ran the same command on the same tree, and only
 * a command some commit-order rule requires is worth running.
 */
async function confirmedRuns(
  root: string,
  runs: readonly SessionRun[],
  identity: string,
  confirmRun: ConfirmRun,
  rulebook: Rulebook,
): Promise<ReadonlyMap<string, string>> {
  const required = requiredCommandTest(rulebook);
  const unconfirmed = new Map<string, string>();
  for (const run of runs) {
    // Only what the gate ran itself is bound: the rulebook in force is named by the event, which the agent may have made up.
    if (!required(run.cmd)) {
      unconfirmed.set(run.cmd, `${UNCONFIRMED} no rule of the rulebook this event named requires it, so the gate did not run it itself`);
      continue;
    }
    const outcome = await confirmRun({ root, command: run.cmd, identity, timeoutMs: rerunTimeoutMs(rulebook) });
    if (outcome.kind === 'failed') unconfirmed.set(run.cmd, `${UNCONFIRMED} ${outcome.ending}`);
    else if (outcome.kind === 'not-run') unconfirmed.set(run.cmd, `${UNCONFIRMED} ${outcome.why}`);
  }
  return unconfirmed;
}
