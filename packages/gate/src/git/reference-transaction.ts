import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Rulebook } from '@holdfast/core/contract';
import { byEnforcement } from '@holdfast/core/rules';
import { appendAudit } from '../decide/index.js';
import { commitChange, mergeChange, readGit, tryReadGit } from './commit-change.js';
import type { GitReader } from './commit-change.js';
import { contentFailures } from '../decide/index.js';
import { withoutInstallFiles } from './install-files.js';
import type { InstallOutput } from './install-files.js';
import { internalErrorReason } from '../decide/index.js';
import type { GateFinding, HookAnswer } from '../decide/index.js';
import type { CheckActions } from '../decide/index.js';
import { checkCommitOrder, knownToExistFor } from './pre-commit.js';
import { finishUnfinishedAgentCalls } from './unfinished-agent-calls.js';
import { commitOrigin, commitSkipsHooks, gitCommandLine } from './commit-origin.js';
import type { RunOnCommitTree } from '../exec/index.js';
import { hasCommitOrderRules } from '../decide/index.js';
import { locateRepo, noteRefUpdates, treeIdentity } from '../state/index.js';
import { putBackRefsBetweenCalls, refPutBackLines } from '../put-back/index.js';

/** One line of the reference-transaction hook's stdin: `<old-value> SP <new-value> SP <ref-name>`. */
interface RefUpdate {
  readonly oldValue: string;
  readonly newValue: string;
  readonly ref: string;
}

/**
 * Refs whose moves are not judged. `refs/remotes/*` are copies of other repositories' branches
 * (a fetch must be able to bring a colleague's work in); their commits are judged the moment a ref
 * of this repository's own comes to reach them (a merge, a pull, a rebase onto them), and a merge of
 * them is judged on everything it brings (mergedFromOutside). `refs/notes/*` hold notes, not project
 * files: no checkout, merge or push of a branch reads them.
 */
function isJudgedRef(ref: string): boolean {
  return !ref.startsWith('refs/remotes/') && !ref.startsWith('refs/notes/');
}

/**
 * `refs/replace/*` are refused outright (a deletion passes): a replace ref makes every later git that
 * honours them (checkout, log, merge; not the gate's, which reads objects as stored) read another
 * object in place of a judged one, and the replacement can be a blob or a tree, which brings no commit
 * the gate could judge.
 */
function isReplaceRef(ref: string): boolean {
  return ref.startsWith('refs/replace/');
}

/**
 * What was reachable before, for `git rev-list … --not`: every ref under `refs/` but the unjudged
 * ones and replace refs, and never HEAD, which a `git symbolic-ref` (no transaction) can point at an
 * unjudged ref, or a write of `.git/HEAD` at any commit. The shell block of the installed hook
 * (reference-transaction-hook.ts) asks git the same.
 */
const KNOWN_REFS = ['--exclude=refs/remotes/*', '--exclude=refs/notes/*', '--exclude=refs/replace/*', '--glob=refs/*'] as const;

/** Reads the hook's stdin; malformed lines are kept out (git writes none) and reported by the caller as unreadable. */
function parseRefUpdates(text: string): { readonly updates: RefUpdate[]; readonly unreadable: string[] } {
  const updates: RefUpdate[] = [];
  const unreadable: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const match = /^(\S+) (\S+) (.+)$/.exec(line);
    if (match === null) unreadable.push(line);
    else updates.push({ oldValue: match[1] as string, newValue: match[2] as string, ref: match[3] as string });
  }
  return { updates, unreadable };
}

/** A deletion (all zeros) or a symbolic ref's new target (`ref:…`, git 2.46+) moves no ref to a new commit. */
function movesToObject(update: RefUpdate): boolean {
  return /[^0]/.test(update.newValue) && !update.newValue.startsWith('ref:');
}

/** What each named value is here, from one `git cat-file --batch-check`: whether it names an object, and the commit it peels to (a tag to its commit; a tree or a blob to none). */
interface NamedObjects {
  readonly exists: ReadonlySet<string>;
  readonly commitOf: ReadonlyMap<string, string>;
}

/** One batch for a transaction: the values every update names (all zeros, a deletion, and `ref:…` name none). */
function namedObjects(reader: GitReader, updates: readonly RefUpdate[]): NamedObjects {
  const values = [...new Set(updates.filter(movesToObject).map((update) => update.newValue))];
  if (values.length === 0) return { exists: new Set(), commitOf: new Map() };
  const asked = values.flatMap((value) => [value, `${value}^{commit}`]);
  const answers = readGit(reader, ['cat-file', '--batch-check'], `${asked.join('\n')}\n`)
    .toString('utf8')
    .split('\n');
  const exists = new Set<string>();
  const commitOf = new Map<string, string>();
  values.forEach((value, index) => {
    const fields = (answers[index * 2] ?? '').split(' ');
    if (fields.length === 3 && fields[1] !== 'missing') exists.add(value);
    const [peeled, peeledKind] = (answers[index * 2 + 1] ?? '').split(' ');
    if (peeledKind === 'commit' && peeled !== undefined) commitOf.set(value, peeled);
  });
  return { exists, commitOf };
}

/**
 * The commits this transaction makes reachable from a judged ref that no judged ref reached before
 * (oldest first, with their parents): `git rev-list NEW… --not --all` without the unjudged refs. In
 * the prepared state no ref has moved yet, so `--all` is the repository as it was.
 */
function commitsBecomingReachable(reader: GitReader, updates: readonly RefUpdate[], named: NamedObjects): { commit: string; parents: string[] }[] {
  const values = new Set(updates.filter((update) => isJudgedRef(update.ref) && movesToObject(update)).map((update) => update.newValue));
  const commits = [...new Set([...values].flatMap((value) => named.commitOf.get(value) ?? []))];
  if (commits.length === 0) return [];
  const listed = readGit(reader, ['rev-list', '--reverse', '--topo-order', '--parents', ...commits, '--not', ...KNOWN_REFS, '--']).toString('utf8');
  return listed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [commit, ...parents] = line.trim().split(' ') as [string, ...string[]];
      return { commit, parents };
    });
}

/**
 * A merge that brings in commits no judged ref reached before (a `git merge origin/main` after a
 * fetch, a pull): one of its other parents is itself new to the judged refs. Such a merge is judged on
 * its whole change against its first parent, so what it brings from outside is judged as what lands
 * on this branch, not only commit by commit. A merge of this repository's own judged branches is not
 * (its merged commits were judged when they landed there).
 */
function mergedFromOutside(commit: { parents: readonly string[] }, fresh: ReadonlySet<string>): boolean {
  return commit.parents.slice(1).some((parent) => fresh.has(parent));
}

/**
 * The project folder a hook runs for: the work tree's top, or for a hook run inside the git
 * directory (receive-pack runs hooks there) the folder that holds it; a bare repository is its own.
 */
function hookRepositoryRoot(reader: GitReader): string {
  const gitDir = tryReadGit(reader, ['rev-parse', '--absolute-git-dir'])?.toString('utf8').trim();
  if (gitDir === undefined || gitDir === '') return reader.cwd;
  if (tryReadGit(reader, ['rev-parse', '--is-bare-repository'])?.toString('utf8').trim() === 'true') return gitDir;
  const top = tryReadGit(reader, ['rev-parse', '--show-toplevel'])?.toString('utf8').trim();
  // With GIT_DIR set and the hook run inside it, git takes the folder it runs in for the work tree.
  if (top !== undefined && top !== '' && top !== gitDir && !top.startsWith(`${gitDir}/`)) return top;
  return basename(gitDir) === '.git' ? dirname(gitDir) : gitDir;
}

/**
 * The commit this transaction makes on the checked-out branch (or a detached HEAD), when it is one
 * commit made here: a single new non-merge commit that no remote-tracking ref holds, as `git commit`
 * (with or without `--no-verify`), `commit --amend`, `commit-tree` + `update-ref`, a one-commit
 * cherry-pick or revert make. Its tree is judged by the order and requires rules like a commit in the
 * pre-commit hook. Commits brought from elsewhere (a pull, a fetch then merge) and moves of several
 * commits at once (a rebase) are not: no local run could have passed on each of their trees first.
 */
function commitMadeHere(reader: GitReader, updates: readonly RefUpdate[], commits: readonly { commit: string; parents: string[] }[]): string | undefined {
  const [only, ...more] = commits;
  if (only === undefined || more.length > 0 || only.parents.length > 1) return undefined;
  const head = tryReadGit(reader, ['symbolic-ref', '-q', 'HEAD'])?.toString('utf8').trim();
  const onHead = updates.some((update) => (update.ref === 'HEAD' || update.ref === head) && update.newValue === only.commit);
  if (!onHead) return undefined;
  const remote = tryReadGit(reader, ['for-each-ref', '--count=1', '--contains', only.commit, '--format=%(refname)', 'refs/remotes/'])?.toString('utf8').trim();
  return remote === undefined || remote !== '' ? undefined : only.commit;
}

/** The moves this transaction makes, let through: the between-calls ref check's baseline (ref-baseline.ts); a repository without a work tree keeps none. */
function noteLetThrough(root: string, updates: readonly RefUpdate[], named: NamedObjects): void {
  const location = existsSync(join(root, '.git')) ? locateRepo(root) : undefined;
  if (location === undefined) return;
  // Only a value that is an object here moves the baseline: a transaction naming one that does not exist (made up,
  // or never written) would leave a baseline no ref can be compared with, and all of history judged at the next event.
  noteRefUpdates(
    location,
    updates.filter((update) => !/[^0]/.test(update.newValue) || named.exists.has(update.newValue)),
  );
}

export interface ReferenceTransactionOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: string;
  readonly now: () => Date;
  readonly rulebook: (root: string) => Promise<Rulebook>;
  readonly checkActions: () => Promise<CheckActions>;
  /** The rulebook file the hook was installed with (absolute, or from the root), protected like the agent hooks protect it; the shipped one when absent. */
  readonly rulebookFile?: (root: string) => string | undefined;
  /** Under holdfast exec (the broker): runs a required command on the new commit's tree when no session recorded a pass. */
  readonly runOnCommitTree?: RunOnCommitTree;
  /** What `holdfast install` of this holdfast writes (install-files.ts): a committed file byte-identical to it is the install, not judged. */
  readonly installOutput?: InstallOutput;
  /** The command line of the git that runs the hook (gitCommandLine); given by tests. */
  readonly gitCommandLine?: () => readonly string[] | undefined;
}

function short(commit: string): string {
  return commit.slice(0, 12);
}

/** Whether the git running this hook is `git commit --no-verify`; a command line that cannot be read says no (the commit is judged). */
function personSkippedHooks(options: ReferenceTransactionOptions): boolean {
  const argv = (options.gitCommandLine ?? gitCommandLine)();
  return argv !== undefined && commitSkipsHooks(argv);
}

/**
 * git's reference-transaction hook, prepared state: every commit a ref update makes newly reachable
 * is judged on its own change (against its parent; a merge on what it wrote itself) by the same
 * judgement as the pre-commit gate, and one broken rule refuses the whole transaction (exit 1), so
 * no ref moves: merge, cherry-pick, am, revert, rebase, pull, stash, update-ref, a push into this
 * repository. `--no-verify` does not skip this hook. The order and requires rules are judged for a
 * commit made here on the checked-out branch (commitMadeHere), against the same session record and
 * tree identity as the pre-commit gate, when an agent's tool call made it (commit-origin.ts). A
 * person's `git commit --no-verify` outside any agent call is let through unjudged unless the
 * rulebook says `git: { personNoVerify: judge }`. Any internal error refuses too.
 */
export async function answerReferenceTransaction(options: ReferenceTransactionOptions): Promise<HookAnswer> {
  const reader: GitReader = { cwd: options.cwd, env: options.env };
  const entry = {
    time: options.now().toISOString(),
    agent: 'git' as const,
    session: 'reference-transaction',
    tool: 'reference-transaction',
    event: 'prepared',
  };
  let root = options.cwd;
  try {
    root = hookRepositoryRoot(reader);
    const { updates, unreadable } = parseRefUpdates(options.stdin);
    if (unreadable.length > 0) throw new Error(`git sent ref updates that cannot be read: ${JSON.stringify(unreadable[0])}`);
    const replaced = updates.filter((update) => isReplaceRef(update.ref) && movesToObject(update));
    if (replaced.length > 0) {
      const detail = `GATE REPLACE: ${replaced.map((update) => update.ref).join(', ')} would make git read another object in place of ${replaced.map((update) => short(update.ref.slice('refs/replace/'.length))).join(', ')}; replace refs are refused in a gated repository (git replace -d removes one). Commit the change itself instead.`;
      await appendAudit(root, { ...entry, action: 'replace ref', rule: 'GATE', name: 'REPLACE', decision: 'deny', detail });
      return { stdout: '', stderr: `holdfast: ref update refused: ${detail}\n`, exitCode: 1 };
    }
    const rules = async () => {
      const [rulebook, checkActions] = await Promise.all([options.rulebook(root), options.checkActions()]);
      return { rulebook, checkActions };
    };
    // Refs moved outside git since the gate last looked (a ref file written directly) are judged first and put back,
    // so what this transaction brings is judged against refs the gate accepted. One this transaction holds cannot be moved: refused.
    let notice = '';
    const refsPutBack = existsSync(join(root, '.git'))
      ? await putBackRefsBetweenCalls({ root, rules, observe: false, updating: new Set([...updates.map((update) => update.ref), 'HEAD']) })
      : [];
    if (refsPutBack.length > 0) {
      const lines = refPutBackLines(refsPutBack);
      const held = refsPutBack.some((entry) => !entry.restored);
      await appendAudit(root, { ...entry, action: 'refs moved outside git', rule: 'GATE', name: 'REF', decision: 'deny', detail: lines.join(' ') });
      const said = ['holdfast: refs were moved outside git (a ref file written directly) onto commits that break the rulebook:', ...lines];
      if (held) return { stdout: '', stderr: `${[...said, 'holdfast: ref update refused: it would build on them. Try again.'].join('\n')}\n`, exitCode: 1 };
      notice = `${said.join('\n')}\n`;
    }
    const named = namedObjects(reader, updates);
    const commits = commitsBecomingReachable(reader, updates, named);
    if (commits.length === 0) {
      noteLetThrough(root, updates, named);
      return { stdout: '', stderr: notice, exitCode: 0 };
    }
    // An agent call whose after-call check was killed or failed is judged first (a `git commit --no-verify` right after it too).
    const earlier = await finishUnfinishedAgentCalls({
      root,
      hook: 'reference-transaction',
      rulebook: () => options.rulebook(root),
      checkActions: options.checkActions,
      rulebookFile: options.rulebookFile?.(root),
      now: options.now,
    });
    if (earlier !== undefined) return { stdout: '', stderr: `${earlier}\n`, exitCode: 1 };
    const fresh = new Set(commits.map((commit) => commit.commit));
    const { rulebook, checkActions } = await rules();
    const origin = commitOrigin(root, options.env, options.now(), options.runOnCommitTree !== undefined);
    const known = knownToExistFor(origin);
    const made = commitMadeHere(reader, updates, commits);
    const honoured = made !== undefined && origin.by === 'person' && (rulebook.git?.personNoVerify ?? 'honour') === 'honour' && personSkippedHooks(options);
    if (honoured) {
      const note = `holdfast: a person's \`git commit --no-verify\` (${short(made)}), made outside any agent tool call, is let through unjudged: the rulebook's git.personNoVerify is honour. \`holdfast verify\` in CI still judges it.`;
      await appendAudit(root, { ...entry, action: `commit ${made}`, rule: null, decision: 'allow', detail: note });
      noteLetThrough(root, updates, named);
      return { stdout: '', stderr: `${notice}${note}\n`, exitCode: 0 };
    }
    const refused: string[] = [];
    // Rules at warn refuse no ref update: said on stderr, recorded as warned.
    const warned: string[] = [];
    const warn = async (commit: string, warnings: readonly GateFinding[]) => {
      if (warnings.length === 0) return;
      warned.push(`  commit ${short(commit)}:`, ...warnings.map((warning) => `    ${warning.detail}`));
      await appendAudit(root, {
        ...entry,
        action: `commit ${commit}`,
        rule: warnings[0]?.rule ?? null,
        name: warnings[0]?.name,
        decision: 'warned',
        detail: warnings.map((warning) => warning.detail).join(' | '),
      });
    };
    for (const { commit, parents } of commits) {
      const change = mergedFromOutside({ parents }, fresh) ? mergeChange(reader, commit, parents[0] as string) : commitChange(reader, commit, parents);
      const { actions } = withoutInstallFiles(change.actions, options.installOutput, {
        after: (path) => tryReadGit(reader, ['cat-file', 'blob', `${commit}:${path}`]),
        before: (path) => (parents[0] === undefined ? undefined : tryReadGit(reader, ['cat-file', 'blob', `${parents[0]}:${path}`])),
      });
      if (actions.length === 0) continue;
      const found = await contentFailures(checkActions, actions, [...change.existedBefore, ...known], rulebook, change.undecodable, change.links);
      const { blocking: failures, warnings } = byEnforcement(rulebook, found);
      await warn(commit, warnings);
      if (failures.length === 0) continue;
      const subject = readGit(reader, ['log', '-1', '--format=%s', commit, '--']).toString('utf8').trim();
      refused.push(`  commit ${short(commit)} "${subject}":`, ...failures.map((failure) => `    ${failure.detail}`));
      await appendAudit(root, {
        ...entry,
        action: `commit ${commit}`,
        rule: failures[0]?.rule ?? null,
        name: failures[0]?.name,
        decision: 'deny',
        detail: failures.map((failure) => failure.detail).join(' | '),
      });
    }
    if (made !== undefined && hasCommitOrderRules(rulebook)) {
      const order = await checkCommitOrder(
        rulebook,
        origin,
        checkActions,
        () => treeIdentity((args, input) => readGit(reader, [...args], input), `${made}^{tree}`),
        options.runOnCommitTree === undefined
          ? undefined
          : {
              root,
              tree: () =>
                readGit(reader, ['rev-parse', `${made}^{tree}`])
                  .toString('utf8')
                  .trim(),
              run: options.runOnCommitTree,
            },
      );
      const { blocking, warnings } = byEnforcement(rulebook, order?.judged === true ? order.failures : []);
      await warn(made, warnings);
      if (order?.judged === true && blocking.length > 0) {
        const subject = readGit(reader, ['log', '-1', '--format=%s', made, '--']).toString('utf8').trim();
        refused.push(`  commit ${short(made)} "${subject}":`, ...blocking.map((failure) => `    ${failure.detail}`), `    ${order.note}`);
        await appendAudit(root, {
          ...entry,
          action: `commit ${made}`,
          rule: blocking[0]?.rule ?? null,
          name: blocking[0]?.name,
          decision: 'deny',
          detail: blocking.map((failure) => failure.detail).join(' | '),
        });
      }
    }
    const refs = updates.filter((update) => isJudgedRef(update.ref)).map((update) => update.ref);
    const warning = warned.length === 0 ? '' : `${['holdfast: warning, rules at warn level broken (not enforced yet):', ...warned].join('\n')}\n`;
    if (refused.length === 0) {
      noteLetThrough(root, updates, named);
      return { stdout: '', stderr: notice + warning, exitCode: 0 };
    }
    const lines = [
      `holdfast: ref update refused (${[...new Set(refs)].join(', ')}): a commit it would make reachable breaks the rulebook:`,
      ...refused,
      'No ref was moved. Fix the files in a new commit made with the hooks on (git commit), then try again.',
    ];
    return { stdout: '', stderr: `${notice}${lines.join('\n')}\n${warning}`, exitCode: 1 };
  } catch (error) {
    const reason = internalErrorReason(error, 'the ref update is refused');
    try {
      await appendAudit(root, { ...entry, action: 'reference-transaction', rule: 'INTERNAL', name: 'ERROR', decision: 'deny', detail: reason });
    } catch {
      // nothing more to do: the refusal below still stops the update
    }
    return { stdout: '', stderr: `${reason}\n`, exitCode: 1 };
  }
}
