import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Action, CheckKind, CheckResult, Rulebook } from '../contract/index.js';
import { describeAction } from '../reply/summarize.js';
import { lazyPatterns } from '../rules/regex.js';
import type { Pattern } from '../rules/regex.js';
import type { ToolCall } from './tool-call.js';
import type { SessionState } from './session-state.js';

/** The rules engine's entry point (src/rules `checkActions`), passed in so the gate loads it lazily. */
export type CheckActions = (actions: readonly Action[], existingPaths: Iterable<string>, rulebook: Rulebook) => Promise<CheckResult[]>;

export type Judgement =
  | { readonly decision: 'allow'; readonly detail: string; readonly next: SessionState; readonly skipped: readonly string[] }
  | { readonly decision: 'deny'; readonly rule: string; readonly name: string; readonly detail: string; readonly skipped: readonly string[] };

/** Which files exist in the project now, before the tool call runs. */
export interface ProjectView {
  exists(repoPath: string): boolean;
  /** Files next to a path (same folder), so a sibling test already on disk is known to exist. */
  siblings(repoPath: string): string[];
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
  };
}

/** The test command pattern of the rulebook's order rule (R6), if it has one (compiled when first needed). */
export function testPattern(rulebook: Rulebook): Pattern | undefined {
  for (const rule of rulebook.rules) {
    if (rule.check.kind !== 'order') continue;
    return lazyPatterns([rule.check.command], '')[0];
  }
  return undefined;
}

/**
 * What earlier calls of the session did, as actions placed before this call's own. The rules judge a
 * round; an agent session is a round spread over many tool calls, so the gate replays what matters:
 *
 * - every file the session created, as a write (content empty: its content was judged when written),
 *   so R3 sees a module's test written earlier in the same round;
 * - the last test run, if no change came after it, so R6 sees a commit preceded by a test run.
 *
 * Results on these replayed actions are ignored: they were judged when they happened.
 */
export function replayedActions(state: SessionState): Action[] {
  const replay: Action[] = state.created.map((path) => ({ type: 'write', path, content: '' }));
  if (state.testedSinceLastWrite && state.lastTestCommand !== undefined) replay.push({ type: 'run', cmd: state.lastTestCommand });
  return replay;
}

function touchedPaths(actions: readonly Action[]): string[] {
  return actions.flatMap((action) => (action.type === 'write' || action.type === 'delete' ? [action.path] : []));
}

/** The state after an allowed call: new files remembered, a change clears the test run, a commit closes the round. */
export function nextSessionState(state: SessionState, actions: readonly Action[], project: ProjectView, pattern: Pick<Pattern, 'test'> | undefined): SessionState {
  const created = new Set(state.created);
  let tested = state.testedSinceLastWrite;
  let lastTestCommand = state.lastTestCommand;
  for (const action of actions) {
    if (action.type === 'write') {
      if (!project.exists(action.path)) created.add(action.path);
      tested = false;
    } else if (action.type === 'delete') {
      created.delete(action.path);
      tested = false;
    } else if (action.type === 'run') {
      if (pattern?.test(action.cmd) === true) {
        tested = true;
        lastTestCommand = action.cmd;
      }
    } else {
      created.clear();
    }
  }
  return { version: 1, created: [...created].sort(), testedSinceLastWrite: tested, lastTestCommand };
}

export interface JudgeOptions {
  readonly rulebook: Rulebook;
  readonly checkActions: CheckActions;
  readonly state: SessionState;
  readonly project: ProjectView;
  /** Check kinds that cannot be judged at this point (R6 in a git pre-commit hook). */
  readonly skipKinds?: readonly CheckKind[];
  /** Appended to a deny detail: how to bypass deliberately, in the agent's words. */
  readonly bypassHint: string;
}

/** Judges one tool call against the rulebook, with the session's earlier calls replayed before it. */
export async function judgeToolCall(call: ToolCall, options: JudgeOptions): Promise<Judgement> {
  const { rulebook, state, project } = options;
  const skipKinds = new Set(options.skipKinds ?? []);
  const skipped = rulebook.rules.filter((rule) => skipKinds.has(rule.check.kind)).map((rule) => `${rule.id} ${rule.name}`);
  if (call.bypass !== undefined) {
    return {
      decision: 'deny',
      rule: 'GATE',
      name: 'BYPASS',
      detail: `holdfast gate: ${call.bypass.reason}. Commit through the hook instead. ${options.bypassHint}`,
      skipped,
    };
  }
  const pattern = testPattern(rulebook);
  const replay = replayedActions(state);
  const judged = [...replay, ...call.actions];
  const created = new Set(state.created);
  const existing = new Set<string>();
  for (const path of touchedPaths(judged)) {
    for (const candidate of [path, ...project.siblings(path)]) {
      if (!created.has(candidate) && project.exists(candidate)) existing.add(candidate);
    }
  }
  const results = await options.checkActions(judged, existing, rulebook);
  const skippedIds = new Set(rulebook.rules.filter((rule) => skipKinds.has(rule.check.kind)).map((rule) => rule.id));
  const failure = results.find((result) => !result.ok && result.actionIndex >= replay.length && !skippedIds.has(result.rule));
  if (failure !== undefined) {
    const kind = rulebook.rules.find((rule) => rule.id === failure.rule)?.check.kind;
    // The gate judges one tool call at a time, so "in the same change" means "earlier in this session".
    const hint = kind === 'sibling-test' ? ' The gate judges one tool call at a time: write the test file first, then the module.' : '';
    return { decision: 'deny', rule: failure.rule, name: failure.name, detail: `${failure.detail}${hint}`, skipped };
  }
  const summary = call.actions.map(describeAction).join('; ');
  return { decision: 'allow', detail: `${summary}: no rule refused it.`, next: nextSessionState(state, call.actions, project, pattern), skipped };
}
