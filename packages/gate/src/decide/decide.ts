import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { byEnforcement, rulesDecidedAt } from '@holdfast/core/rules';
import type { ObservedRun } from '@holdfast/core/contract';
import type { GateFinding } from './tamper.js';
import type { ToolCall } from './tool-call.js';
import { withRun } from '../state/index.js';
import type { SessionRun, SessionState } from '../state/index.js';

/** The rules engine's entry point (src/rules `checkActions`), passed in so the gate loads it lazily. */
export type CheckActions = (
  actions: readonly Action[],
  existingPaths: Iterable<string>,
  rulebook: Rulebook,
  observed?: ReadonlyMap<number, ObservedRun>,
  existingContent?: (path: string) => string | undefined,
) => Promise<CheckResult[]>;

/** A rule's verdict on the call, ok or not, as the audit log of observe mode records it. */
interface RuleVerdict {
  readonly rule: string;
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

interface JudgementBase {
  /** Every rule result on this call's own actions, and every gate finding (all not ok). */
  readonly verdicts: readonly RuleVerdict[];
  /** Where the session stands if the call goes ahead (it does when allowed, and in observe mode). */
  readonly next: SessionState;
  /** R3 refusals held back until the session commits or the turn ends. */
  readonly pending: readonly GateFinding[];
  /**
   * Broken rules at `enforcement: warn`: they refuse nothing; the agent is told them and the audit records
   * the call as warned. With a denial they are said beside the refusal.
   */
  readonly warnings: readonly GateFinding[];
}

/** A denial carries every broken rule of the call at once, in action order, so the model fixes them in one go. */
export type Judgement =
  | (JudgementBase & { readonly decision: 'allow'; readonly detail: string })
  | (JudgementBase & { readonly decision: 'deny'; readonly failures: readonly [GateFinding, ...GateFinding[]] });

/** Which files exist in the project now, before the tool call runs. */
export interface ProjectView {
  exists(repoPath: string): boolean;
  /** Files next to a path (same folder), so a sibling test already on disk is known to exist. */
  siblings(repoPath: string): string[];
  /** What a file holds now, before the call (the dependency kind compares a manifest with it); undefined when unreadable. */
  read?(repoPath: string): string | undefined;
}

export function projectOnDisk(root: string): ProjectView {
  return {
    exists: (repoPath) => {
      try {
        return statSync(join(root, repoPath)).isFile();
      } catch {
        return false;
      }
    },
    siblings: (repoPath) => {
      const folder = posix.dirname(repoPath);
      const absolute = join(root, folder);
      if (!existsSync(absolute)) return [];
      try {
        return readdirSync(absolute, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => (folder === '.' ? entry.name : `${folder}/${entry.name}`));
      } catch {
        return [];
      }
    },
    read: (repoPath) => {
      try {
        return readFileSync(join(root, repoPath), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** What earlier calls of a session did, as actions to place before a call's own, with how its runs ended. */
export interface Replay {
  readonly actions: readonly Action[];
  /** By index in `actions`: the runs a hook saw fail. */
  readonly observed: ReadonlyMap<number, ObservedRun>;
}

/**
 * What earlier calls of the session did, as actions placed before this call's own. The rules judge a
 * round; an agent session is a round spread over many tool calls, so the gate replays what matters:
 *
 * - every file the session created or changed since its last commit, as a write (content empty: its
 *   content was judged when written), so R3 sees a module and its test written in different calls;
 * - the commands run since the last change, with the ones a hook saw fail marked so, so R6 sees
 *   whether a commit is preceded by a test run that did not fail (the order rule's pattern decides
 *   which of them is a test run, only when a commit is judged).
 *
 * Results on these replayed actions were judged when they happened, except R3's, which is only
 * enforced when the session commits or the turn ends.
 */
export function replayedRound(state: SessionState, committedTree?: string): Replay {
  const paths = new Set([...state.created, ...(state.changed ?? [])]);
  const actions: Action[] = [...paths].sort().map((path) => ({ type: 'write', path, content: '' }));
  const observed = new Map<number, ObservedRun>();
  for (const run of state.runs) {
    const outcome = committedTree === undefined ? failedRun(run) : runOnTree(run, committedTree);
    if (outcome !== undefined) observed.set(actions.length, outcome);
    actions.push({ type: 'run', cmd: run.cmd });
  }
  return { actions, observed };
}

function failedRun(run: SessionRun): ObservedRun | undefined {
  return run.failed === undefined ? undefined : { passed: false, ending: run.failed };
}

/** How an unbound run's reason starts when the gate's own run did not confirm the pass a hook event claimed (run-hook.ts). */
export const UNCONFIRMED = 'the hook event said it exited 0, but';

/**
 * How a recorded run stands against the tree a commit holds (its identity, tree-identity.ts): it
 * passed on exactly that tree, or it does not count, and why. A run whose end no hook saw, or that
 * passed on another tree, does not count: the commit would hold files the command never passed on.
 */
function runOnTree(run: SessionRun, committedTree: string): ObservedRun {
  if (run.failed !== undefined) return { passed: false, ending: run.failed };
  if (run.tree === committedTree) return { passed: true, ending: 'exit code 0 on the tree being committed' };
  if (run.tree !== undefined)
    return {
      passed: false,
      ending:
        'it passed on another tree than the one being committed (files changed after it ran, or the commit leaves out or adds files it ran with), so it does not count for this one',
    };
  if (run.unbound?.startsWith(UNCONFIRMED) === true)
    return { passed: false, ending: `${run.unbound}; under holdfast exec a pass counts only when the gate's own run of the command passes on the same tree` };
  if (run.unbound !== undefined) return { passed: false, ending: `it ended with exit 0, but ${run.unbound}, so what it passed on is not what is committed` };
  return {
    passed: false,
    ending: 'its end was not seen by the gate (a run counts once the hook after its call saw it exit 0, so run it in a call of its own before the commit)',
  };
}

/** Whether a rulebook has rules about what must have passed before a commit (order, requires): only then is a commit's tree worth hashing. */
export function hasCommitOrderRules(rulebook: Rulebook): boolean {
  return rulesDecidedAt(rulebook, 'commit').size > 0;
}

/**
 * The state after a hook saw a shell call end with exit 0: each of the call's runs is bound to the
 * tree it passed on, or (`tree` undefined: the call changed files) marked as passed on no known tree.
 */
export function withPassedRuns(
  state: SessionState,
  command: string,
  tree: string | undefined,
  why = 'it changed files while it ran',
  unconfirmed: ReadonlyMap<string, string> = new Map(),
): SessionState {
  return {
    ...state,
    runs: state.runs.map((run) => {
      if (!command.includes(run.cmd) || run.failed !== undefined) return run;
      const notConfirmed = unconfirmed.get(run.cmd);
      if (notConfirmed !== undefined) return { cmd: run.cmd, unbound: notConfirmed };
      return tree === undefined ? { cmd: run.cmd, unbound: why } : { cmd: run.cmd, tree };
    }),
  };
}

function touchedPaths(actions: readonly Action[]): string[] {
  return actions.flatMap((action) => (action.type === 'write' || action.type === 'delete' ? [action.path] : []));
}

/** The state after a call went ahead: new files remembered, a change clears the runs, a commit closes the round. */
export function nextSessionState(state: SessionState, actions: readonly Action[], project: ProjectView): SessionState {
  const created = new Set(state.created);
  const changed = new Set(state.changed ?? []);
  let changedBeforeCommit = state.changedBeforeCommit;
  let runs = state.runs;
  for (const action of actions) {
    if (action.type === 'write') {
      if (!project.exists(action.path)) created.add(action.path);
      else if (!created.has(action.path)) changed.add(action.path);
      runs = [];
    } else if (action.type === 'delete') {
      created.delete(action.path);
      changed.delete(action.path);
      runs = [];
    } else if (action.type === 'run') {
      runs = withRun(runs, action.cmd);
    } else {
      changedBeforeCommit = [...changed].sort();
      created.clear();
      changed.clear();
    }
  }
  return { version: 1, created: [...created].sort(), changed: [...changed].sort(), changedBeforeCommit, runs };
}

/**
 * The state after a shell call failed (a non-zero exit, seen by a PostToolUse hook): every command
 * of that call counts as failed, so a test run in it is not a passing one. A command is the call's
 * when the call's text contains it (the shell analysis split the call into its commands).
 */
export function withFailedRuns(state: SessionState, command: string, ending: string): SessionState {
  return { ...state, runs: state.runs.map((run) => (command.includes(run.cmd) ? { cmd: run.cmd, failed: ending } : run)) };
}

export interface ChangeCheckSetup {
  readonly rulebook: Rulebook;
  readonly checkActions: CheckActions;
  readonly state: SessionState;
  readonly project: ProjectView;
  /** The gate's own findings on this call (tampering), judged before the rules. */
  readonly gateFindings?: readonly GateFinding[];
  /**
   * The identity of the tree a commit of this call would hold (the work tree now), asked only when
   * the call commits and the rulebook has order or requires rules: the session's runs then count
   * only when they passed on exactly that tree. Absent, a run counts unless a hook saw it fail.
   */
  readonly committedTree?: () => string;
}

/** `holdfast allow` is the person's override; an agent that runs it is trying to let itself through. */
const PERSON_OVERRIDE = /\bholdfast(?:\.js)?["']?\s+allow\b/;

/** Bypass findings: every hook bypass the shell analysis found, and any run of the person's override. */
function bypassFindings(call: Pick<ToolCall, 'actions' | 'bypasses'>): GateFinding[] {
  const findings: GateFinding[] = call.bypasses.map((bypass) => ({
    rule: 'GATE',
    name: 'BYPASS',
    detail: `GATE BYPASS: ${bypass.reason}. Commit with the hooks on: run the tests, fix what the gate reports, then commit.`,
  }));
  for (const action of call.actions) {
    if (action.type === 'run' && PERSON_OVERRIDE.test(action.cmd)) {
      findings.push({
        rule: 'GATE',
        name: 'BYPASS',
        detail:
          'GATE BYPASS: `holdfast allow` is an override for the person at the terminal, not a command for the agent; change the work so that it follows the rules instead.',
      });
    }
  }
  return findings;
}

/** The rules judged over the whole change (R3): held as pending until the session commits or its turn ends. */
function overTheChange(rulebook: Rulebook): (ruleId: string) => boolean {
  const ids = rulesDecidedAt(rulebook, 'change');
  return (ruleId) => ids.has(ruleId);
}

/** The files that exist already (not created by the session) among the paths judged and their neighbours. */
function existingAround(actions: readonly Action[], state: SessionState, project: ProjectView): Set<string> {
  const created = new Set(state.created);
  const existing = new Set<string>();
  for (const path of touchedPaths(actions)) {
    for (const candidate of [path, ...project.siblings(path)]) {
      if (!created.has(candidate) && project.exists(candidate)) existing.add(candidate);
    }
  }
  return existing;
}

function asFinding(result: CheckResult): GateFinding {
  return { rule: result.rule, name: result.name, detail: result.detail };
}

function withoutDuplicates(findings: readonly GateFinding[]): GateFinding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.rule}\u0000${finding.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Judges one tool call against every rule at once, with the session's earlier calls replayed before
 * it. R3 (a new module ships with its test) is a rule about the change, not the call: a module
 * written without its test is held as pending and refused only when the session commits, or at the
 * end of the turn (see decideTurnEnd), so a turn that writes `x.ts` and then `x.test.ts` lands both.
 */
export async function decideToolCall(call: Pick<ToolCall, 'actions' | 'bypasses'>, options: ChangeCheckSetup): Promise<Judgement> {
  const { rulebook, state, project } = options;
  const commits = call.actions.some((action) => action.type === 'commit');
  const committedTree = commits && options.committedTree !== undefined && hasCommitOrderRules(rulebook) ? options.committedTree() : undefined;
  const replay = replayedRound(state, committedTree);
  const judged = [...replay.actions, ...call.actions];
  const observed = committedTree === undefined ? replay.observed : withOwnRunsUnseen(replay, call.actions);
  const results = await options.checkActions(judged, existingAround(judged, state, project), rulebook, observed, (path) => project.read?.(path));
  const gate = [...(options.gateFindings ?? []), ...bypassFindings(call)];
  const failures: GateFinding[] = [...gate];
  const pending: GateFinding[] = [];
  const verdicts: RuleVerdict[] = gate.map((finding) => ({ ...finding, ok: false }));
  const deferredRule = overTheChange(rulebook);
  for (const result of results) {
    const ownAction = result.actionIndex >= replay.actions.length;
    const deferred = deferredRule(result.rule);
    if (ownAction) verdicts.push({ rule: result.rule, name: result.name, ok: result.ok, detail: result.detail });
    if (result.ok) continue;
    if (deferred && !commits) pending.push(asFinding(result));
    else if (deferred && commits) failures.push({ ...asFinding(result), detail: `${result.detail} The session is committing without it.` });
    else if (ownAction) failures.push(asFinding(result));
  }
  const next = nextSessionState(state, call.actions, project);
  // The gate's own findings come first and always block; a rule at warn lets the call through.
  const { blocking, warnings } = byEnforcement(rulebook, withoutDuplicates(failures.slice(gate.length)));
  const [first, ...rest] = [...withoutDuplicates(gate), ...blocking];
  if (first !== undefined) return { decision: 'deny', failures: [first, ...rest], verdicts, next, pending, warnings };
  return {
    decision: 'allow',
    detail: warnings.length === 0 ? 'no rule refused it.' : 'no blocking rule refused it.',
    next,
    verdicts,
    pending: withoutDuplicates(pending),
    warnings,
  };
}

/** A commit's own call cannot have seen its runs end: `npm test && git commit` commits before any hook sees the tests pass. */
function withOwnRunsUnseen(replay: Replay, actions: readonly Action[]): ReadonlyMap<number, ObservedRun> {
  const observed = new Map(replay.observed);
  const passedBefore = new Set(
    replay.actions.flatMap((action, index) => (action.type === 'run' && replay.observed.get(index)?.passed === true ? [action.cmd] : [])),
  );
  actions.forEach((action, index) => {
    // The same command already passed on this tree: running it again in the commit's call changes nothing.
    if (action.type === 'run' && !passedBefore.has(action.cmd))
      observed.set(replay.actions.length + index, {
        passed: false,
        ending: 'it runs in the same call as the commit, so the gate cannot see it pass before the commit; run it in a call of its own first',
      });
  });
  return observed;
}

/** A module the session created that still has no test at the end of its turn, and the rule that asks for it. */
export interface TurnEndFinding extends GateFinding {
  /** The module's path, relative to the project root. */
  readonly path: string;
}

/**
 * The end of the agent's turn (Claude Code and Codex `Stop`, the end of a loop-mode session): every
 * module the session created and still has no test for. The agent is sent back to write them, or to
 * remove the module (loop mode's held arm removes it).
 */
export async function decideTurnEnd(options: Omit<ChangeCheckSetup, 'gateFindings'>): Promise<TurnEndFinding[]> {
  const { rulebook, state, project } = options;
  const replay = replayedRound(state).actions.filter((action) => action.type === 'write');
  if (replay.length === 0) return [];
  const results = await options.checkActions(replay, existingAround(replay, state, project), rulebook);
  const deferredRule = overTheChange(rulebook);
  const seen = new Set<string>();
  return results.flatMap((result) => {
    const write = replay[result.actionIndex];
    const key = `${result.rule}\u0000${result.detail}`;
    if (result.ok || !deferredRule(result.rule) || write?.type !== 'write' || seen.has(key)) return [];
    seen.add(key);
    return [{ ...asFinding(result), path: write.path }];
  });
}
