import { isAbsolute, join, posix, relative } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { inAgentSettingsSubfolder, inOpenCodeSettings, readCheckoutEntries, toSlashes } from '../io/index.js';
import { guardedChanges, tamper } from '../state/index.js';
import type { BrokenRule } from '../state/index.js';
import { restoreGuarded } from '../state/index.js';
import type { GuardedFile, GuardedFiles } from '../state/index.js';
import { saveGuardedBaseline } from '../state/index.js';
import { checkoutAction, linkFailures } from '../decide/index.js';
import type { ChangeFailure, ChangeCheck } from '../decide/index.js';
import { commitChanges, commitPaths, movedRefs, moveRefBack, putHeadBack, rootRelative, unstageRefused } from '../state/index.js';
import type { MovedRef, RefusedPath, RepoState } from '../state/index.js';
import { journalReverts, recentReverts, revertKey } from '../state/index.js';
import type { GateRevert } from '../state/index.js';
import type { SnapshotAfter, SnapshotRecord } from '../state/index.js';
import { takeSnapshotAfter } from '../state/index.js';
import { followPutBack, indexPaths, removeCreated, restoreFromTree, snapshotStorePath, treeChanges, treePathsAround } from '../state/index.js';
import { checkIgnoreRules, filesHiddenByNewRules } from '../state/index.js';
import { changesBehindSessionRules, filesBehindSessionRules, followJudgement, loadSessionIgnores, restoreHidden, saveSessionIgnores } from '../state/index.js';
import type { SessionIgnores } from '../state/index.js';
import type { TreeChange, TreePair } from '../state/index.js';

/** A path the call changed against a rule, and what the gate did about it. */
interface RevertedPath {
  readonly path: string;
  /** `restored`: back to its content before the call; `deleted`: the call created it. */
  readonly remedy: 'restored' | 'deleted';
  readonly broken: readonly BrokenRule[];
  readonly action: Action;
  /**
   * The refused content as a blob in the snapshot store (null when the call deleted the file), so a
   * person can still recover it: the call's window may have caught their own edit.
   */
  readonly refusedBlob: string | null;
}

/** A branch or tag the call moved onto commits that break a rule, moved back. */
interface RevertedRef {
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
  /** Paths (from the repository top) whose refused content git would not take out of the index. */
  readonly stillStaged: readonly string[];
  /** Every work-tree path the call changed (root-relative), kept or put back. */
  readonly touched: readonly string[];
  /**
   * When nothing was put back: the SHA-256 of the index the check read the work tree into, the state
   * it judged and left. A later snapshot whose index is the same covers the call without judging again.
   */
  readonly leftIndex?: string;
}

/** Paths whose change is tampering, or how to read them when a call changed something (the rule code needs the rulebook loaded). */
export type ProtectedPaths = readonly string[] | (() => Promise<readonly string[]>);

export async function protectedPathList(paths: ProtectedPaths | undefined): Promise<readonly string[]> {
  return typeof paths === 'function' ? paths() : (paths ?? []);
}

export interface PostCheckInput {
  readonly root: string;
  readonly session: string;
  readonly before: SnapshotRecord;
  readonly judge: ChangeCheck;
  /** Root-relative paths whose change is tampering (the rulebook file, its rule code). */
  readonly protectedPaths?: ProtectedPaths;
  readonly observe?: boolean;
  readonly now?: () => Date;
}

/**
 * A symbolic link is judged where it leads: writes through `src/up -> ..` land in the project's top
 * folder, so the link is a write there (its target resolved from the link's folder; an absolute target
 * stays absolute, and the scope rule refuses both when they leave what may be written).
 */
function linkTarget(path: string, target: string): string {
  return target.startsWith('/') ? target : posix.normalize(posix.join(posix.dirname(path), target));
}

/** The changes of a call as actions, and the written paths whose bytes are not text (path to why). */
export interface ChangedFiles {
  readonly actions: Action[];
  readonly undecodable: ReadonlyMap<string, string>;
}

/**
 * The changes of a call as actions, each file read as a checkout of the after-snapshot would write it
 * (checkoutRead, the `.gitattributes` the call left applied): the store's `git add` applies the work
 * tree's `working-tree-encoding` as any git does, so a file a `.gitattributes` the agent wrote made
 * git store as noise is judged as the text on disk.
 */
export function changeActions(root: string, afterTree: string | undefined, changes: readonly TreeChange[]): ChangedFiles {
  const written = changes.flatMap((change) =>
    change.status === 'deleted' || change.to === null ? [] : [{ path: change.path, mode: change.link === true ? '120000' : '100644', blob: change.to }],
  );
  const contents = readCheckoutEntries({ cwd: root, gitDir: snapshotStorePath(root), ownRepository: true }, afterTree ?? '', written);
  const undecodable = new Map<string, string>();
  const actions = changes.map((change): Action => {
    const read = change.status === 'deleted' ? undefined : contents.get(change.path);
    if (read === undefined) return { type: 'delete', path: change.path };
    if (read.kind === 'link') return { type: 'write', path: linkTarget(change.path, read.target), content: '' };
    if (read.undecodable !== undefined) undecodable.set(change.path, read.undecodable);
    return { type: 'write', path: change.path, content: read.text };
  });
  return { actions, undecodable };
}

export function brokenByIndex(failures: readonly ChangeFailure[]): Map<number, BrokenRule[]> {
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
async function checkWorkTree(
  input: PostCheckInput,
  actions: readonly Action[],
  existedBefore: ReadonlySet<string>,
  undecodable: ReadonlyMap<string, string>,
): Promise<Map<number, BrokenRule[]>> {
  const refused = new Map<number, BrokenRule[]>();
  let remaining = actions.map((action, index) => ({ action, index }));
  for (let round = 0; round < 5 && remaining.length > 0; round += 1) {
    const failures = await input.judge({
      root: input.root,
      session: input.session,
      round: 'work-tree',
      actions: remaining.map((entry) => entry.action),
      existedBefore,
      undecodable,
    });
    if (failures.length === 0) break;
    for (const [position, broken] of brokenByIndex(failures)) {
      const entry = remaining[position];
      if (entry !== undefined) refused.set(entry.index, broken);
    }
    remaining = remaining.filter((entry) => !refused.has(entry.index));
  }
  return refused;
}

interface JudgedCommits {
  readonly commits: RevertedRef['commits'];
  /** Every path the commits touched, relative to the repository top. */
  readonly paths: readonly string[];
}

async function checkCommits(input: PostCheckInput, repo: RepoState, moved: MovedRef): Promise<JudgedCommits> {
  const commits = [];
  const paths = new Set<string>();
  for (const commit of moved.commits) {
    const changes = commitChanges(repo, commit);
    const undecodable = new Map<string, string>();
    const links = new Map<string, string>();
    const actions: Action[] = changes.map((change) => {
      paths.add(change.repoPath);
      const path = rootRelative(repo, input.root, change.repoPath);
      return change.read === undefined ? { type: 'delete', path } : checkoutAction(path, change.read, undecodable, links);
    });
    actions.push({ type: 'commit', message: commit.subject });
    const parent = commit.parents[0];
    const existedBefore = new Set(parent === undefined ? [] : commitPaths(repo, parent).map((path) => rootRelative(repo, input.root, path)));
    const failures = await input.judge({ root: input.root, session: input.session, round: 'commit', actions, existedBefore, undecodable });
    const broken = [...failures, ...linkFailures(actions, links)].map((failure) => {
      const action = actions[failure.actionIndex];
      return {
        rule: failure.rule,
        name: failure.name,
        detail: failure.detail,
        path: action?.type === 'write' || action?.type === 'delete' ? action.path : undefined,
      };
    });
    commits.push({ id: commit.id, subject: commit.subject, broken });
  }
  return { commits, paths: [...paths] };
}

/** A work-tree change the rules refused, with what putting it back needs. */
interface RefusedChange {
  readonly change: TreeChange;
  readonly entry: RevertedPath;
}

interface WorkTreeJudgement {
  readonly refused: readonly RefusedChange[];
  readonly kept: readonly Action[];
  readonly touched: readonly string[];
  /** Every change judged, and what session-ignores.ts needs to follow the session's own ignore rules. */
  readonly changes: readonly TreeChange[];
  readonly hidden: HiddenChanges;
}

interface HiddenChanges {
  readonly changes: readonly TreeChange[];
  /** The session's ignore rules (see session-ignores.ts) and the files behind them now; none for most sessions. */
  readonly session: SessionIgnores | undefined;
  readonly behind: readonly TreeChange[];
}

/**
 * Files hidden from the snapshot that are judged all the same: those the call created behind ignore
 * rules it changed (see hidden-files.ts; none when the rules stayed as they were), and, for a session
 * that wrote ignore rules of its own, the files behind them that are new or changed since the last check.
 */
function hiddenChanges(input: PostCheckInput, seen: readonly TreeChange[]): HiddenChanges {
  const context = { root: input.root, store: snapshotStorePath(input.root) };
  const ignore = checkIgnoreRules(context, seen);
  const changes =
    !ignore.mayHaveChanged || ignore.ignoredBefore === undefined
      ? []
      : filesHiddenByNewRules(context, input.before, join(context.store, 'index'), ignore.ignoredBefore);
  const session = loadSessionIgnores(input.root, input.session);
  if (session === undefined) return { changes, session, behind: [] };
  const behind = filesBehindSessionRules(context, session, 'index', ignore.ignoredNow());
  const judgedElsewhere = new Set([...seen, ...changes].map((change) => change.path));
  return { changes: [...changes, ...changesBehindSessionRules(session, behind, judgedElsewhere)], session, behind };
}

/** Every path of the before-snapshot (a call whose tree was never written: nothing git saw changed). */
function snapshotPathsBefore(root: string, before: SnapshotRecord): string[] {
  return before.index === undefined ? [] : indexPaths(root, before.index);
}

async function checkWorkTreeChanges(input: PostCheckInput, trees: TreePair | null, now: Date): Promise<WorkTreeJudgement> {
  const { root } = input;
  const seen = trees === null ? [] : treeChanges(root, trees.before, trees.after);
  const hidden = hiddenChanges(input, seen);
  const allChanges = [...seen, ...hidden.changes];
  if (allChanges.length === 0) return { refused: [], kept: [], touched: [], changes: [], hidden };
  // A revert the gate made for an overlapping call is not this call's change.
  const ownReverts = recentReverts(root, now);
  const changes = allChanges.filter((change) => !ownReverts.has(revertKey({ path: change.path, from: change.from, to: change.to })));
  const { actions, undecodable } = changeActions(root, trees?.after, changes);
  // What existed before in the folders of the paths judged (a link is judged where it leads), as the decision before a
  // call reads it: the rules ask only about the paths they judge, so the whole tree is never listed.
  const judgedPaths = [...changes.map((change) => change.path), ...actions.flatMap((action) => ('path' in action ? [action.path] : []))];
  const existedBefore = new Set(trees === null ? snapshotPathsBefore(root, input.before) : treePathsAround(root, trees.before, judgedPaths));
  for (const change of hidden.changes) if (change.from !== null) existedBefore.add(change.path);
  const protectedPaths = new Set(await protectedPathList(input.protectedPaths));
  const broken = new Map<number, readonly BrokenRule[]>();
  const judged: number[] = [];
  for (const [index, change] of changes.entries()) {
    // Copilot CLI's hooks and settings below .github/, and OpenCode's settings and plugins, stay in the snapshots: a change there is put back from them.
    if (protectedPaths.has(change.path) || inAgentSettingsSubfolder(change.path) || inOpenCodeSettings(change.path)) broken.set(index, [tamper(change.path)]);
    else judged.push(index);
  }
  const judgement = await checkWorkTree(
    input,
    judged.map((index) => actions[index] as Action),
    existedBefore,
    undecodable,
  );
  for (const [position, rules] of judgement) broken.set(judged[position] as number, rules);
  // A move is a delete and an add of the same content: when the add is refused, the file goes back where it was.
  for (const [index, change] of changes.entries()) {
    if (change.status !== 'deleted' || broken.has(index)) continue;
    const destination = changes.findIndex((other, position) => other.status === 'added' && other.to === change.from && broken.has(position));
    if (destination >= 0) broken.set(index, broken.get(destination) as readonly BrokenRule[]);
  }
  const refused: RefusedChange[] = [];
  const kept: Action[] = [];
  for (const [index, change] of changes.entries()) {
    const action = actions[index] as Action;
    const rules = broken.get(index);
    if (rules === undefined) kept.push(action);
    else
      refused.push({
        change,
        entry: { path: change.path, remedy: change.status === 'added' ? 'deleted' : 'restored', broken: rules, action, refusedBlob: change.to },
      });
  }
  return { refused, kept, touched: allChanges.map((change) => change.path), changes, hidden };
}

/** The session's own ignore rules and the files behind them, as this check leaves them (see session-ignores.ts). */
function followSessionIgnores(input: PostCheckInput, workTree: WorkTreeJudgement, observe: boolean): void {
  const context = { root: input.root, store: snapshotStorePath(input.root) };
  const refused = observe ? [] : workTree.refused.map((entry) => entry.change);
  const next = followJudgement(context, workTree.hidden.session, { changes: workTree.changes, refused, behind: workTree.hidden.behind });
  if (next !== undefined) saveSessionIgnores(input.root, input.session, next);
}

interface RefusedGuarded {
  readonly entry: RevertedPath;
  readonly before: GuardedFile | undefined;
  readonly revert: GateRevert;
}

function checkGuarded(input: PostCheckInput, after: SnapshotAfter, now: Date): RefusedGuarded[] {
  const changes = guardedChanges(input.root, input.before, after);
  if (changes.length === 0) return [];
  const ownReverts = recentReverts(input.root, now);
  const refused: RefusedGuarded[] = [];
  for (const change of changes) {
    const revert = { path: change.path, from: change.after?.blob ?? null, to: change.before?.blob ?? null };
    if (ownReverts.has(revertKey({ path: change.path, from: revert.to, to: revert.from }))) continue;
    const action: Action = change.after === undefined ? { type: 'delete', path: change.path } : { type: 'write', path: change.path, content: '' };
    refused.push({
      entry: {
        path: change.path,
        remedy: change.before === undefined ? 'deleted' : 'restored',
        broken: [tamper(change.path)],
        action,
        refusedBlob: revert.from,
      },
      before: change.before,
      revert,
    });
  }
  return refused;
}

interface RefusedRef {
  readonly moved: MovedRef;
  readonly judged: JudgedCommits;
}

async function checkRefs(input: PostCheckInput, after: SnapshotAfter): Promise<RefusedRef[]> {
  const { before } = input;
  if (before.repo === null || after.repo === null || before.repo.top !== after.repo.top) return [];
  const refused: RefusedRef[] = [];
  for (const moved of movedRefs(before.repo, after.repo)) {
    const judged = await checkCommits(input, after.repo, moved);
    if (judged.commits.some((commit) => commit.broken.length > 0)) refused.push({ moved, judged });
  }
  return refused;
}

/** The guarded files as the check leaves them: as after the call, but those it put back. */
function guardedAsLeft(after: GuardedFiles, refused: readonly RefusedGuarded[]): GuardedFiles {
  const left: Record<string, GuardedFile> = { ...after };
  for (const { entry, before } of refused) {
    if (before === undefined) delete left[entry.path];
    else left[entry.path] = before;
  }
  return left;
}

/**
 * Whether the call took HEAD off the branch it was on, onto a ref (or a detached commit) the gate has just put
 * back: HEAD would name a ref that is gone, or stay detached, and the repository read as a branch with no commit.
 */
function headLeftOffItsBranch(before: RepoState, after: RepoState, refs: readonly RevertedRef[]): boolean {
  if (before.headRef === null || after.headRef === before.headRef) return false;
  const named = after.headRef ?? 'HEAD';
  return refs.some((ref) => ref.movedBack && ref.ref === named);
}

/** Judges everything first, then puts back: a check that fails half-way has changed nothing. */
async function checkOnce(input: PostCheckInput): Promise<PostCheckOutcome> {
  const { root, before } = input;
  const observe = input.observe === true;
  const now = (input.now ?? (() => new Date()))();
  const after = takeSnapshotAfter(root, before);
  const workTree = await checkWorkTreeChanges(input, after.trees, now);
  const guarded = checkGuarded(input, after, now);
  const refusedRefs = await checkRefs(input, after);
  const reverted = [...workTree.refused.map((refused) => refused.entry), ...guarded.map((refused) => refused.entry)];
  const summary = (movedBack: (refused: RefusedRef) => boolean): RevertedRef[] =>
    refusedRefs.map((refused) => ({
      ref: refused.moved.ref,
      before: refused.moved.before,
      after: refused.moved.after,
      commits: refused.judged.commits,
      movedBack: movedBack(refused),
    }));
  if (observe) {
    followSessionIgnores(input, workTree, true);
    return {
      reverted,
      refs: summary(() => false),
      kept: workTree.kept,
      observed: true,
      stillStaged: [],
      touched: workTree.touched,
      leftIndex: after.indexDigest,
    };
  }

  const restore: string[] = [];
  const journal: GateRevert[] = [];
  const unstage: RefusedPath[] = [];
  for (const { change } of workTree.refused) {
    if (change.status === 'added') removeCreated(root, change.path);
    else if (change.hidden === true && change.from !== null) restoreHidden(root, change.path, change.from);
    else restore.push(change.path);
    journal.push({ path: change.path, from: change.to, to: change.from });
    if (after.repo !== null) unstage.push({ repoPath: toSlashes(relative(after.repo.top, join(root, change.path))), refusedBlob: change.to });
  }
  if (after.trees !== null) restoreFromTree(root, after.trees.before, restore);
  const stillStaged = after.repo === null ? [] : [...unstageRefused(after.repo, unstage)];
  for (const refused of guarded) {
    restoreGuarded(root, refused.entry.path, refused.before);
    journal.push(refused.revert);
  }
  journalReverts(root, journal, now);
  // Hidden files stay out of the store's index (their ignore rules keep them out of `git add`); .git/ and HOME are never in it.
  followPutBack(root, [
    ...workTree.refused.filter(({ change }) => change.hidden !== true).map(({ change }) => change.path),
    ...guarded.map((refused) => refused.entry.path).filter((path) => !isAbsolute(path) && !/^(?:\.git|\.\.)(?:\/|$)/.test(path)),
  ]);
  saveGuardedBaseline(root, guardedAsLeft(after.guarded, guarded));
  followSessionIgnores(input, workTree, false);
  const refs = summary((refused) => {
    const result = moveRefBack(after.repo as RepoState, refused.moved, refused.judged.paths);
    if (!result.indexReset) stillStaged.push(...refused.judged.paths);
    return result.movedBack;
  });
  if (before.repo !== null && after.repo !== null && headLeftOffItsBranch(before.repo, after.repo, refs)) {
    const paths = [...new Set(refusedRefs.flatMap((refused) => refused.judged.paths))];
    if (!putHeadBack(before.repo, after.repo, paths)) stillStaged.push(...paths);
  }
  const putBack = reverted.length > 0 || refs.length > 0;
  return { reverted, refs, kept: workTree.kept, observed: false, stillStaged, touched: workTree.touched, ...(putBack ? {} : { leftIndex: after.indexDigest }) };
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
    stillStaged: [...first.stillStaged, ...second.stillStaged],
    touched: [...new Set([...first.touched, ...second.touched])],
  };
}
