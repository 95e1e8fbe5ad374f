import { join, posix, relative, sep } from 'node:path';
import type { Action, CheckKind, Rulebook } from '../contract/index.js';
import type { CheckActions } from './judge.js';
import { commitChanges, commitPaths, movedRefs, moveRefBack, readBlobs, rootRelative, unstageRefused } from './repo-state.js';
import type { MovedRef, RefusedPath, RepoState } from './repo-state.js';
import {
  hookSettings,
  journalReverts,
  recentReverts,
  removeCreated,
  restoreFromTree,
  restoreGuarded,
  revertKey,
  snapshotStorePath,
  takeSnapshot,
  treeChanges,
  treePaths,
} from './snapshot.js';
import type { GateRevert, GuardedFile, Snapshot, SnapshotRecord, TreeChange } from './snapshot.js';

/** What a tool call changed, as a round for the rulebook. */
export interface ChangesToJudge {
  readonly root: string;
  readonly session: string;
  /**
   * `work-tree`: the files the call left changed. `commit`: one commit the call made (a script's `git
   * commit`, hooks skipped or not): its changed files, then the commit action last.
   */
  readonly round: 'work-tree' | 'commit';
  /** Writes (with their content) and deletes, and for a commit round the commit last. */
  readonly actions: readonly Action[];
  /** Paths that existed before (the before snapshot, or the commit's parent), so a new module is known as new. */
  readonly existedBefore: ReadonlySet<string>;
}

/** One rule one action broke. `actionIndex` indexes ChangesToJudge.actions. */
export interface ChangeFailure {
  readonly actionIndex: number;
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
}

/**
 * Judges changes against the rulebook. Passed in by the hook runtime, which replays the session
 * (earlier calls' files and test runs) the same way it does for PreToolUse.
 */
export type JudgeChanges = (changes: ChangesToJudge) => Promise<readonly ChangeFailure[]>;

export interface JudgeChangesOptions {
  readonly rulebook: Rulebook;
  readonly checkActions: CheckActions;
  /** What the session did before this call, placed before the changes; their own results are ignored. */
  readonly replay?: (root: string, session: string) => readonly Action[];
  /** Check kinds not judged here (for example R3, judged over the session at the end of the turn). */
  readonly skipKinds?: readonly CheckKind[];
}

/**
 * A JudgeChanges on the rules engine's checkActions. A commit round is judged in two parts: its files
 * by every rule but the order rules (the steps inside a script cannot be seen, as in the git
 * pre-commit gate), and the commit itself by the order rules after the session's replay (were the
 * tests run after the session's last change?).
 */
export function judgeChangesWith(options: JudgeChangesOptions): JudgeChanges {
  const skipKinds = new Set(options.skipKinds ?? []);
  const rules = options.rulebook.rules;
  const skipped = new Set(rules.filter((rule) => skipKinds.has(rule.check.kind)).map((rule) => rule.id));
  const orderRules = new Set(rules.filter((rule) => rule.check.kind === 'order').map((rule) => rule.id));
  const judge = async (actions: readonly Action[], existed: ReadonlySet<string>, replay: readonly Action[], keep: (rule: string) => boolean, offset: number) => {
    const results = await options.checkActions([...replay, ...actions], existed, options.rulebook);
    return results
      .filter((result) => !result.ok && result.actionIndex >= replay.length && !skipped.has(result.rule) && keep(result.rule))
      .map((result) => ({ actionIndex: result.actionIndex - replay.length + offset, rule: result.rule, name: result.name, detail: result.detail }));
  };
  return async ({ root, session, round, actions, existedBefore }) => {
    const replay = options.replay?.(root, session) ?? [];
    if (round === 'work-tree') return judge(actions, existedBefore, replay, () => true, 0);
    const files = actions.filter((action) => action.type !== 'commit');
    const commits = actions.slice(files.length);
    return [
      ...(await judge(files, existedBefore, [], (rule) => !orderRules.has(rule), 0)),
      ...(await judge(commits, existedBefore, replay, (rule) => orderRules.has(rule), files.length)),
    ];
  };
}

/** A JudgeChanges that loads what it needs (the rulebook) on first use: a call that changed nothing never pays for it. */
export function judgeChangesLazily(load: () => Promise<JudgeChangesOptions>): JudgeChanges {
  let loaded: Promise<JudgeChanges> | undefined;
  return async (changes) => {
    loaded ??= load().then(judgeChangesWith);
    return (await loaded)(changes);
  };
}

export interface BrokenRule {
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
}

/** A path the call changed against a rule, and what the gate did about it. */
export interface RevertedPath {
  readonly path: string;
  /** `restored`: back to its content before the call; `deleted`: the call created it. */
  readonly remedy: 'restored' | 'deleted';
  readonly broken: readonly BrokenRule[];
  readonly action: Action;
}

/** A branch or tag the call moved onto commits that break a rule, moved back. */
export interface RevertedRef {
  readonly ref: string;
  readonly before: string | null;
  readonly after: string;
  readonly commits: readonly { id: string; subject: string; broken: readonly (BrokenRule & { path: string | undefined })[] }[];
  /** False when the ref could not be moved back (a detached HEAD that had no commit before). */
  readonly movedBack: boolean;
}

export interface PostCheckOutcome {
  readonly reverted: readonly RevertedPath[];
  readonly refs: readonly RevertedRef[];
  /** The changes that stayed, for the session state. */
  readonly kept: readonly Action[];
  /** In observe mode nothing is put back; the outcome says what would have been. */
  readonly observed: boolean;
}

export interface PostCheckInput {
  readonly root: string;
  readonly session: string;
  readonly before: SnapshotRecord;
  readonly judge: JudgeChanges;
  /** Root-relative paths whose change is tampering (the rulebook file). */
  readonly protectedPaths?: readonly string[];
  readonly observe?: boolean;
  readonly now?: () => Date;
}

const TAMPER_DETAIL = 'GATE TAMPER: the gate, the agents\' hook settings, git hooks and the rulebook are not the agent\'s to change.';

function tamper(path: string): BrokenRule {
  return { rule: 'GATE', name: 'TAMPER', detail: `${TAMPER_DETAIL} (${path})` };
}

/**
 * Claude Code writes the permissions a person grants during a call into its settings files; only the
 * rest of them (hooks, above all) is guarded. A missing file reads as empty settings.
 */
function settingsBesidesPermissions(root: string, blob: string | undefined): string {
  if (blob === undefined) return '{}';
  const text = readBlobs({ top: root, gitDir: snapshotStorePath(root) }, [blob], root).get(blob) ?? '';
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return text;
    const { permissions: _permissions, ...rest } = parsed as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return text;
  }
}

function guardedChangeIsTamper(root: string, path: string, before: GuardedFile | undefined, after: GuardedFile | undefined, repo: RepoState | null): boolean {
  const configPath = repo === null ? undefined : relative(root, join(repo.commonDir, 'config')).split(sep).join('/');
  // Git rewrites its config for ordinary work (an upstream, a remote); only the settings that pick hooks are the gate's.
  if (path === configPath && before !== undefined && after !== undefined) return hookSettings(root, before.blob).join('\0') !== hookSettings(root, after.blob).join('\0');
  if (/^\.claude\/settings(?:\.local)?\.json$/.test(path)) return settingsBesidesPermissions(root, before?.blob) !== settingsBesidesPermissions(root, after?.blob);
  return true;
}

function guardedChanges(root: string, before: Snapshot, after: Snapshot): { path: string; before: GuardedFile | undefined; after: GuardedFile | undefined }[] {
  const paths = new Set([...Object.keys(before.guarded), ...Object.keys(after.guarded)]);
  const changed = [];
  for (const path of [...paths].sort()) {
    const previous = before.guarded[path];
    const current = after.guarded[path];
    if (previous?.blob === current?.blob && previous?.kind === current?.kind) continue;
    if (guardedChangeIsTamper(root, path, previous, current, after.repo ?? before.repo)) changed.push({ path, before: previous, after: current });
  }
  return changed;
}

function changeActions(root: string, after: Snapshot, changes: readonly TreeChange[]): Action[] {
  const names = changes.filter((change) => change.status !== 'deleted').map((change) => `${after.tree}:${change.path}`);
  const contents = readBlobs({ top: root, gitDir: snapshotStorePath(root) }, names, root);
  return changes.map((change) =>
    change.status === 'deleted' ? { type: 'delete', path: change.path } : { type: 'write', path: change.path, content: contents.get(`${after.tree}:${change.path}`) ?? '' },
  );
}

function brokenByIndex(failures: readonly ChangeFailure[]): Map<number, BrokenRule[]> {
  const byIndex = new Map<number, BrokenRule[]>();
  for (const failure of failures) {
    const list = byIndex.get(failure.actionIndex) ?? [];
    if (!list.some((known) => known.rule === failure.rule)) list.push({ rule: failure.rule, name: failure.name, detail: failure.detail });
    byIndex.set(failure.actionIndex, list);
  }
  return byIndex;
}

/**
 * Judges the work-tree changes until what stays is clean on its own: putting one file back can
 * break a rule for another (a module whose test was refused no longer has a test).
 */
async function judgeWorkTree(input: PostCheckInput, actions: readonly Action[], existedBefore: ReadonlySet<string>): Promise<Map<number, BrokenRule[]>> {
  const refused = new Map<number, BrokenRule[]>();
  let remaining = actions.map((action, index) => ({ action, index }));
  for (let round = 0; round < 5 && remaining.length > 0; round += 1) {
    const failures = await input.judge({ root: input.root, session: input.session, round: 'work-tree', actions: remaining.map((entry) => entry.action), existedBefore });
    if (failures.length === 0) break;
    for (const [position, broken] of brokenByIndex(failures)) {
      const entry = remaining[position];
      if (entry !== undefined) refused.set(entry.index, broken);
    }
    remaining = remaining.filter((entry) => !refused.has(entry.index));
  }
  return refused;
}

async function judgeCommits(input: PostCheckInput, repo: RepoState, moved: MovedRef): Promise<RevertedRef['commits']> {
  const commits = [];
  for (const commit of moved.commits) {
    const changes = commitChanges(repo, commit);
    const actions: Action[] = changes.map((change) => {
      const path = rootRelative(repo, input.root, change.repoPath);
      return change.status === 'delete' ? { type: 'delete', path } : { type: 'write', path, content: change.content ?? '' };
    });
    actions.push({ type: 'commit', message: commit.subject });
    const parent = commit.parents[0];
    const existedBefore = new Set(parent === undefined ? [] : commitPaths(repo, parent).map((path) => rootRelative(repo, input.root, path)));
    const failures = await input.judge({ root: input.root, session: input.session, round: 'commit', actions, existedBefore });
    const broken = failures.map((failure) => {
      const action = actions[failure.actionIndex];
      return { rule: failure.rule, name: failure.name, detail: failure.detail, path: action?.type === 'write' || action?.type === 'delete' ? action.path : undefined };
    });
    commits.push({ id: commit.id, subject: commit.subject, broken });
  }
  return commits;
}

async function checkOnce(input: PostCheckInput): Promise<PostCheckOutcome> {
  const { root, before } = input;
  const observe = input.observe === true;
  const now = input.now ?? (() => new Date());
  const after = takeSnapshot(root);
  const protectedPaths = new Set(input.protectedPaths ?? []);
  const allChanges = treeChanges(root, before.tree, after.tree);
  const ownReverts = allChanges.length === 0 ? new Set<string>() : recentReverts(root, now());
  // A revert the gate made for an overlapping call is not this call's change.
  const changes = allChanges.filter((change) => !ownReverts.has(revertKey({ path: change.path, from: change.from, to: change.to })));
  const actions = changeActions(root, after, changes);
  const existedBefore = new Set(changes.length === 0 ? [] : treePaths(root, before.tree));
  const refused = new Map<number, readonly BrokenRule[]>();
  const judged: number[] = [];
  for (const [index, change] of changes.entries()) {
    if (protectedPaths.has(change.path)) refused.set(index, [tamper(change.path)]);
    else judged.push(index);
  }
  const judgement = await judgeWorkTree(input, judged.map((index) => actions[index] as Action), existedBefore);
  for (const [position, broken] of judgement) refused.set(judged[position] as number, broken);

  const reverted: RevertedPath[] = [];
  const kept: Action[] = [];
  const restore: string[] = [];
  const journal: GateRevert[] = [];
  const unstage: RefusedPath[] = [];
  for (const [index, change] of changes.entries()) {
    const action = actions[index] as Action;
    const broken = refused.get(index);
    if (broken === undefined) {
      kept.push(action);
      continue;
    }
    reverted.push({ path: change.path, remedy: change.status === 'added' ? 'deleted' : 'restored', broken, action });
    if (observe) continue;
    if (change.status === 'added') removeCreated(root, change.path);
    else restore.push(change.path);
    journal.push({ path: change.path, from: change.to, to: change.from });
    if (after.repo !== null) unstage.push({ repoPath: relative(after.repo.top, join(root, change.path)).split(sep).join('/'), refusedBlob: change.to });
  }
  if (!observe) restoreFromTree(root, before.tree, restore);
  if (after.repo !== null) unstageRefused(after.repo, unstage);

  const guarded = guardedChanges(root, before, after);
  const ownGuarded = guarded.length === 0 ? new Set<string>() : recentReverts(root, now());
  for (const change of guarded) {
    const revert = { path: change.path, from: change.before?.blob ?? null, to: change.after?.blob ?? null };
    if (ownGuarded.has(revertKey(revert))) continue;
    const action: Action = change.after === undefined ? { type: 'delete', path: change.path } : { type: 'write', path: change.path, content: '' };
    reverted.push({ path: change.path, remedy: change.before === undefined ? 'deleted' : 'restored', broken: [tamper(change.path)], action });
    if (observe) continue;
    restoreGuarded(root, change.path, change.before);
    journal.push({ path: change.path, from: revert.to, to: revert.from });
  }
  journalReverts(root, journal, now());

  const refs: RevertedRef[] = [];
  if (before.repo !== null && after.repo !== null && before.repo.top === after.repo.top) {
    for (const moved of movedRefs(before.repo, after.repo)) {
      const commits = await judgeCommits(input, after.repo, moved);
      if (commits.every((commit) => commit.broken.length === 0)) continue;
      const unstage = [...new Set(moved.commits.flatMap((commit) => commitChanges(after.repo as RepoState, commit).map((change) => change.repoPath)))];
      const movedBack = observe ? false : moveRefBack(after.repo, moved, unstage);
      refs.push({ ref: moved.ref, before: moved.before, after: moved.after, commits, movedBack });
    }
  }
  return { reverted, refs, kept, observed: observe };
}

/**
 * The after-the-fact check of one tool call: snapshot the project again, judge every change the call
 * made (work tree, guarded files, new commits) and put back each one that breaks a rule, leaving the
 * compliant ones in place. A put-back `.gitignore` can reveal files it hid, so the check then runs once more.
 */
export async function checkAfterCall(input: PostCheckInput): Promise<PostCheckOutcome> {
  const first = await checkOnce(input);
  const revealing = !first.observed && first.reverted.some((entry) => posix.basename(entry.path) === '.gitignore');
  if (!revealing) return first;
  const second = await checkOnce(input);
  const known = new Set(first.reverted.map((entry) => entry.path));
  return {
    reverted: [...first.reverted, ...second.reverted.filter((entry) => !known.has(entry.path))],
    refs: [...first.refs, ...second.refs],
    kept: second.kept,
    observed: false,
  };
}
