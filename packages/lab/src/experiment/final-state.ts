import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Action, CheckResult, LandedViolation, Rulebook } from '@holdfast/core/contract';
import { checkActions, checkTiming, requiredCommands, undecodableResults } from '@holdfast/core/rules';
import type { CheckTiming } from '@holdfast/core/rules';
import { readCommitText, readWorkTreeText } from './landed-text.js';
import type { LandedText } from './landed-text.js';
import { nulList, readNameStatus, repoGit } from './session/repo-git.js';
import type { NameStatus, RepoLocation } from './session/repo-git.js';

/**
 * One step of a session, as the commit-timed rules (order, requires) need it: a change to the tree, a
 * run of a command the rulebook requires (`test`: it counts only if it passed) or a commit (its hash,
 * when known). In the order they happened.
 */
export type TimelineStep =
  { readonly type: 'change' } | { readonly type: 'test'; readonly cmd: string; readonly passed: boolean } | { readonly type: 'commit'; readonly hash?: string };

export interface FinalStateOptions {
  /**
   * The session's changes, runs of required commands and commits, for the commit-timed rules (R6
   * ORDER, requires). Without it they are not judged (git alone does not know which commands ran). A commit in git that the timeline cannot place is judged
   * as having no passing test run before it: fail closed.
   */
  readonly timeline?: readonly TimelineStep[];
}

/** The rulebook without the rules a session decides at `timings` (see CheckTiming). */
function withoutTimings(rulebook: Rulebook, timings: readonly CheckTiming[]): Rulebook {
  return { ...rulebook, rules: rulebook.rules.filter((rule) => !timings.includes(checkTiming(rule.check))) };
}

function onlyTiming(rulebook: Rulebook, timing: CheckTiming): Rulebook {
  return { ...rulebook, rules: rulebook.rules.filter((rule) => checkTiming(rule.check) === timing) };
}

/** The changes as actions, and the paths whose bytes did not decode (every content rule reaching one refuses it). */
async function toActions(
  changes: readonly NameStatus[],
  content: (path: string) => Promise<LandedText> | LandedText,
): Promise<{ actions: Action[]; undecodable: Map<string, string> }> {
  const undecodable = new Map<string, string>();
  const actions = await Promise.all(
    changes.map(async (change): Promise<Action> => {
      if (change.status === 'D') return { type: 'delete', path: change.path };
      const read = await content(change.path);
      if (read.undecodable !== undefined) undecodable.set(change.path, read.undecodable);
      return { type: 'write', path: change.path, content: read.text };
    }),
  );
  return { actions, undecodable };
}

/** The rulebook's results over actions read from disk, undecodable files refused as the gate refuses them. */
async function judgeLanded(
  read: { actions: Action[]; undecodable: Map<string, string> },
  existing: readonly string[],
  rulebook: Rulebook,
): Promise<CheckResult[]> {
  const results = await checkActions(read.actions, existing, rulebook);
  return [...results, ...undecodableResults(rulebook, read.actions, read.undecodable)].sort((left, right) => left.actionIndex - right.actionIndex);
}

function landedFrom(results: readonly CheckResult[], actions: readonly Action[], commit: string | undefined): LandedViolation[] {
  return results
    .filter((result) => !result.ok)
    .map((result) => {
      const action = actions[result.actionIndex];
      const path = action !== undefined && (action.type === 'write' || action.type === 'delete') ? action.path : undefined;
      return {
        rule: result.rule,
        name: result.name,
        ...(path !== undefined ? { path } : {}),
        ...(commit !== undefined ? { commit } : {}),
        detail: result.detail,
      };
    });
}

/** Every commit since the base, oldest first, each judged on the files it changed (R3 and R6 apart). */
async function judgeCommits(repo: RepoLocation, commits: readonly string[], rulebook: Rulebook): Promise<LandedViolation[]> {
  const perCommit = withoutTimings(rulebook, ['change', 'commit']);
  const landed: LandedViolation[] = [];
  if (perCommit.rules.length === 0) return landed;
  for (const commit of commits) {
    const changes = readNameStatus(await repoGit(repo, ['diff-tree', '-r', '--root', '--no-commit-id', '--no-renames', '--name-status', '-z', commit]));
    const existing = nulList(await repoGit(repo, ['ls-tree', '-r', '--name-only', '-z', `${commit}^`]).catch(() => ''));
    const read = await toActions(changes, (path) => readCommitText(repo, commit, path));
    landed.push(...landedFrom(await judgeLanded(read, existing, perCommit), read.actions, commit));
  }
  return landed;
}

/** The work tree (committed or not, untracked files too) against the base, as one change: R3 sees all of it. */
async function checkWorkTree(repo: RepoLocation, baseCommit: string, rulebook: Rulebook): Promise<LandedViolation[]> {
  const whole = withoutTimings(rulebook, ['commit']);
  if (whole.rules.length === 0) return [];
  // A private index: the repository's own index (and what the agent staged) is left alone.
  const scratch = mkdtempSync(join(tmpdir(), 'holdfast-final-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await repoGit(repo, ['read-tree', baseCommit], env);
    await repoGit(repo, ['add', '--all'], env);
    const changes = readNameStatus(await repoGit(repo, ['diff', '--cached', '--no-renames', '--name-status', '-z', baseCommit], env));
    const existing = nulList(await repoGit(repo, ['ls-tree', '-r', '--name-only', '-z', baseCommit]));
    const read = await toActions(changes, (path) => readWorkTreeText(repo.workTree, path));
    return landedFrom(await judgeLanded(read, existing, whole), read.actions, undefined);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The commit-timed rules (R6 ORDER, requires) from the timeline: each commit in git is placed on the
 * timeline (by hash, else in order) and needs a passing run of each command its rules require after
 * the last change before it. Exported for `rescore`, which judges
 * a recorded agent arm's timeline with another rulebook.
 */
export async function judgeOrder(commits: readonly string[], timeline: readonly TimelineStep[], rulebook: Rulebook): Promise<LandedViolation[]> {
  const order = onlyTiming(rulebook, 'commit');
  if (order.rules.length === 0) return [];
  const actions: Action[] = [];
  const commitAt = new Map<number, string>();
  const unplaced = new Set(commits);
  const byHash = new Set(timeline.flatMap((step) => (step.type === 'commit' && step.hash !== undefined ? [step.hash] : [])));
  const inOrder = commits.filter((commit) => !byHash.has(commit));
  for (const step of timeline) {
    if (step.type === 'change') actions.push({ type: 'write', path: 'changed', content: '' });
    else if (step.type === 'test') {
      if (step.passed) actions.push({ type: 'run', cmd: step.cmd });
    } else {
      const hash = step.hash !== undefined && unplaced.has(step.hash) ? step.hash : inOrder.find((commit) => unplaced.has(commit));
      if (hash === undefined) continue;
      unplaced.delete(hash);
      commitAt.set(actions.length, hash);
      actions.push({ type: 'commit', message: hash });
    }
  }
  const landed: LandedViolation[] = [];
  for (const result of await checkActions(actions, [], order)) {
    const hash = commitAt.get(result.actionIndex);
    if (result.ok || hash === undefined) continue;
    landed.push({
      rule: result.rule,
      name: result.name,
      commit: hash,
      detail: `${result.rule} ${result.name}: commit ${hash.slice(0, 12)} was made without ${requiredNames(rulebook, result.rule)} passing after the last change before it.`,
    });
  }
  for (const rule of order.rules) {
    for (const hash of unplaced) {
      landed.push({
        rule: rule.id,
        name: rule.name,
        commit: hash,
        detail: `${rule.id} ${rule.name}: commit ${hash.slice(0, 12)} was not made through a call holdfast saw, so no passing run of ${requiredNames(rulebook, rule.id)} is known before it.`,
      });
    }
  }
  return landed;
}

/** How a detail names what a rule requires ("the test command (npm test)", "`npm run lint` and `npm test`"). */
function requiredNames(rulebook: Rulebook, ruleId: string): string {
  const names = requiredCommands(rulebook)
    .filter((command) => command.rule.id === ruleId)
    .map((command) => command.name);
  return names.length === 0 ? 'its required commands' : names.join(' and ');
}

/**
 * The violations that landed: what is really in the repository at the end, whatever tool put it
 * there. Every commit since `baseCommit` is judged on the files it changed; the work tree (committed
 * or not, untracked files included) is judged against the base as one change, so R3 TESTS sees the
 * whole change; the commit-timed rules (R6 ORDER, requires) are judged from `options.timeline`. A violation found both in a commit and
 * in the work tree is reported once, with the first commit that carried it.
 */
export async function judgeFinalState(
  repo: string | RepoLocation,
  baseCommit: string,
  rulebook: Rulebook,
  options: FinalStateOptions = {},
): Promise<LandedViolation[]> {
  const location: RepoLocation = typeof repo === 'string' ? { workTree: repo } : repo;
  // No HEAD beyond the base (nothing committed, or an unborn branch) is no commit to judge.
  const revisions = await repoGit(location, ['rev-list', '--reverse', `${baseCommit}..HEAD`]).catch(() => '');
  const commits = revisions.split('\n').filter((line) => line.length > 0);
  const fromCommits = await judgeCommits(location, commits, rulebook);
  const fromTree = await checkWorkTree(location, baseCommit, rulebook);
  const fromOrder = options.timeline === undefined ? [] : await judgeOrder(commits, options.timeline, rulebook);
  const seen = new Set<string>();
  const once = (violation: LandedViolation): boolean => {
    const key = `${violation.rule}\u0000${violation.path ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  return [...fromCommits.filter(once), ...fromTree.filter(once), ...fromOrder];
}
