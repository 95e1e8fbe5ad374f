import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { byEnforcement } from '@holdfast/core/rules';
import { tryGit } from '../io/index.js';
import { checkoutAction, contentFailures } from '../decide/index.js';
import type { CheckActions } from '../decide/index.js';
import {
  baselineState,
  commitChanges,
  commitPaths,
  loadRefBaseline,
  movedRefs,
  readRepoState,
  readReplaceRefs,
  rootRelative,
  saveRefBaseline,
} from '../state/index.js';
import type { MovedRef, RefBaseline, RepoState } from '../state/index.js';

export interface RefsBetweenCallsInput {
  readonly root: string;
  /** The rulebook and its checks, loaded only when a ref moved onto commits to judge. */
  readonly rules: () => Promise<{ readonly rulebook: Rulebook; readonly checkActions: CheckActions }>;
  /** Judge and report, move nothing back. */
  readonly observe: boolean;
  /** Refs the git transaction that runs this check is updating: git holds their locks, so they are not moved here. */
  readonly updating?: ReadonlySet<string>;
}

/** A ref found moved outside git onto commits that break a rule (or a replace ref made outside git), and whether it was put back. */
export interface RefPutBack {
  /** `refs/heads/main`, `refs/replace/<id>`, or `HEAD` when HEAD itself was rewritten. */
  readonly ref: string;
  /** Where the gate last saw it; null when it did not exist. */
  readonly before: string | null;
  readonly after: string;
  /** The commits it reached that break a rule, each with the findings (none for a replace ref). */
  readonly commits: readonly { readonly id: string; readonly subject: string; readonly details: readonly string[] }[];
  readonly restored: boolean;
}

function sameBaseline(left: RefBaseline, right: RefBaseline): boolean {
  const same = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) => {
    const names = Object.keys(a);
    return names.length === Object.keys(b).length && names.every((name) => a[name] === b[name]);
  };
  return left.headRef === right.headRef && left.headCommit === right.headCommit && same(left.refs, right.refs) && same(left.replaced, right.replaced);
}

/** The blocking findings of the content rules on one commit's own change, as the reference-transaction hook judges a commit. */
async function judgeCommit(input: RefsBetweenCallsInput, repo: RepoState, commit: MovedRef['commits'][number]): Promise<string[]> {
  const undecodable = new Map<string, string>();
  const links = new Map<string, string>();
  const actions: Action[] = commitChanges(repo, commit).map((change) => {
    const path = rootRelative(repo, input.root, change.repoPath);
    return change.read === undefined ? { type: 'delete', path } : checkoutAction(path, change.read, undecodable, links);
  });
  if (actions.length === 0) return [];
  const parent = commit.parents[0];
  const existedBefore = parent === undefined ? [] : commitPaths(repo, parent).map((path) => rootRelative(repo, input.root, path));
  const { rulebook, checkActions } = await input.rules();
  const found = await contentFailures(checkActions, actions, existedBefore, rulebook, undecodable, links);
  return byEnforcement(rulebook, found).blocking.map((failure) => failure.detail);
}

const MESSAGE = 'holdfast: put back a ref moved outside git onto a commit that breaks the rulebook';

/** Moves a ref back to `before` (deletes it when it had none), only if it still holds `after`. */
function restoreRef(repo: RepoState, ref: string, before: string | null, after: string): boolean {
  const options = { cwd: repo.top, gitDir: repo.gitDir };
  const args = before === null ? ['update-ref', '-m', MESSAGE, '-d', ref, after] : ['update-ref', '-m', MESSAGE, ref, before, after];
  return tryGit(args, options).status === 0;
}

/** HEAD as the baseline had it: on its branch again, or detached at its commit. */
function restoreHead(repo: RepoState, baseline: RefBaseline): boolean {
  const options = { cwd: repo.top, gitDir: repo.gitDir };
  if (baseline.headRef !== null) return tryGit(['symbolic-ref', '-m', MESSAGE, 'HEAD', baseline.headRef], options).status === 0;
  if (baseline.headCommit === null) return false;
  return tryGit(['update-ref', '--no-deref', '-m', MESSAGE, 'HEAD', baseline.headCommit], options).status === 0;
}

/**
 * Refs moved while the gate was not looking and without git's reference-transaction hook (a file
 * written into `.git/refs/`, `packed-refs` or `HEAD` by a process, or by a person's editor): every
 * ref the gate watches (all namespaces but remote-tracking refs and notes, HEAD, replace refs) is
 * compared with the sealed baseline the last event left (ref-baseline.ts), which every git
 * transaction the reference-transaction hook let through moved on. A moved ref's new commits are
 * judged by the content rules;
 * a ref that reached a violating one is moved back, and HEAD too when it was pointed at it. A replace
 * ref made outside git is removed (the reference-transaction hook refuses `git replace`). What a ref
 * of ours took from `refs/remotes/` is judged as its new commits. Cheap when nothing moved: the ref
 * files are read, no process started.
 */
export async function putBackRefsBetweenCalls(input: RefsBetweenCallsInput): Promise<RefPutBack[]> {
  const repo = readRepoState(input.root);
  if (repo === null) return [];
  const now: RefBaseline = { headRef: repo.headRef, headCommit: repo.headCommit, refs: repo.refs, replaced: readReplaceRefs(repo) };
  const baseline = loadRefBaseline(repo);
  if (baseline === undefined) {
    if (!input.observe) saveRefBaseline(repo, now);
    return [];
  }
  if (sameBaseline(baseline, now)) return [];
  const verdicts = new Map<string, string[]>();
  const refused: { moved: MovedRef; commits: RefPutBack['commits'] }[] = [];
  for (const moved of movedRefs(baselineState(repo, baseline), repo)) {
    const commits: { id: string; subject: string; details: string[] }[] = [];
    for (const commit of moved.commits) {
      let details = verdicts.get(commit.id);
      if (details === undefined) {
        details = await judgeCommit(input, repo, commit);
        verdicts.set(commit.id, details);
      }
      if (details.length > 0) commits.push({ id: commit.id, subject: commit.subject, details });
    }
    if (commits.length > 0) refused.push({ moved, commits });
  }
  const replacedNow = Object.entries(now.replaced).filter(([name, id]) => baseline.replaced[name] !== id);
  if (refused.length === 0 && replacedNow.length === 0) {
    if (!input.observe) saveRefBaseline(repo, now);
    return [];
  }
  // git holds HEAD only while its lock file is there: a transaction that does not write HEAD (an update of
  // another ref, ORIG_HEAD) leaves it free, and HEAD is put back on its branch at once, never left naming a
  // ref this put-back deletes. While git does hold it, the ref HEAD names cannot move either (git writes
  // HEAD's log with it): both are left, the transaction refused, and the next event puts them back.
  const held = (ref: string) => input.updating?.has(ref) === true && (ref !== 'HEAD' || existsSync(join(repo.gitDir, 'HEAD.lock')));
  const keep = (ref: string) => input.observe || held(ref);
  const putBack: RefPutBack[] = [];
  const refs: Record<string, string> = { ...now.refs };
  const replaced: Record<string, string> = { ...now.replaced };
  const headRefused = refused.some(({ moved }) => moved.ref === 'HEAD' || (moved.ref === repo.headRef && repo.headRef !== baseline.headRef));
  for (const { moved, commits } of refused) {
    if (moved.ref === 'HEAD') continue;
    const restored = !keep(moved.ref) && restoreRef(repo, moved.ref, moved.before, moved.after);
    putBack.push({ ref: moved.ref, before: moved.before, after: moved.after, commits, restored });
    // What is left where it was stays out of the baseline: the next event judges it again.
    if (moved.before === null) delete refs[moved.ref];
    else refs[moved.ref] = moved.before;
  }
  let head = { headRef: now.headRef, headCommit: now.headCommit };
  if (headRefused) {
    const restored = !keep('HEAD') && restoreHead(repo, baseline);
    const detached = refused.find(({ moved }) => moved.ref === 'HEAD');
    putBack.push({ ref: 'HEAD', before: baseline.headCommit, after: repo.headCommit ?? '', commits: detached?.commits ?? [], restored });
    head = { headRef: baseline.headRef, headCommit: baseline.headCommit };
  }
  for (const [name, id] of replacedNow) {
    const before = baseline.replaced[name] ?? null;
    const restored = !keep(name) && restoreRef(repo, name, before, id);
    putBack.push({ ref: name, before, after: id, commits: [], restored });
    if (before === null) delete replaced[name];
    else replaced[name] = before;
  }
  // HEAD on a branch is that branch's commit as the baseline keeps it: never a commit left where it is.
  if (head.headRef !== null) head = { headRef: head.headRef, headCommit: refs[head.headRef] ?? null };
  saveRefBaseline(repo, input.observe ? now : { ...head, refs, replaced });
  return putBack;
}

function short(id: string | null): string {
  return id === null ? 'nothing' : id.slice(0, 12);
}

/** One line per ref for the model, a person's terminal and the audit log. */
export function refPutBackLines(putBack: readonly RefPutBack[]): string[] {
  return putBack.map((entry) => {
    const what = entry.ref.startsWith('refs/replace/')
      ? `a replace ref, which makes git read ${short(entry.after)} in place of ${short(entry.ref.slice('refs/replace/'.length))}`
      : `${short(entry.after)}: ${entry.commits.map((commit) => `commit ${short(commit.id)} "${commit.subject}" (${commit.details.join(' ')})`).join('; ')}`;
    const remedy = entry.restored ? `put back to ${short(entry.before)}` : 'left where it is';
    return `- ${entry.ref} → ${what}; ${remedy}`;
  });
}

/** The model's sentence for refs moved outside git between calls. */
export function refsBetweenCallsReason(putBack: readonly RefPutBack[]): string {
  return [
    'GATE REF: refs changed while no tool call was running, without a git command the gate judged (a ref file written directly, by a process that outlived its call or a script), onto commits that break the rulebook:',
    ...refPutBackLines(putBack),
    'Make commits with git commit from files that follow the rulebook; leave the files under .git/ to git.',
  ].join('\n');
}
