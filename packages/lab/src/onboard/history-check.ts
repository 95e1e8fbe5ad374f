import { execFile, spawn } from 'node:child_process';
import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { checkActions, checkFingerprint, redactSecrets, rulesNotInHistory } from '@holdfast/core/rules';
import type { RuleTrials } from '@holdfast/core/rules';
import { GIT_HARDENING, hermeticGitEnv } from '../sandbox/git.js';
import { OnboardError } from './onboard-error.js';
import { MAX_FILE_BYTES } from './repo-snapshot.js';

/** What one commit of the history would have met at the gate. */
export interface CommitVerdict {
  readonly commit: string;
  /** The commit's subject, every key in it masked (redactSecrets). */
  readonly subject: string;
  /** The rule results that failed, in action order, every key in a detail masked. */
  readonly refusals: readonly CheckResult[];
}

/** A checked rule and how many commits it would have refused. */
export interface RuleFiring {
  readonly id: string;
  readonly name: string;
  readonly commits: number;
  /** Fired on more than PROBABLY_WRONG_SHARE of the commits: a rule the team follows rarely refuses its own history. */
  readonly probablyWrong: boolean;
}

export interface HistoryCheck {
  /** The commit the history was read back from. */
  readonly head: string;
  readonly commits: readonly CommitVerdict[];
  readonly rules: readonly RuleFiring[];
  /** Rules a history cannot judge, each "ID NAME: why" (a commit does not show which commands ran before it). */
  readonly unjudged: readonly string[];
}

/**
 * The share of the team's own recent commits a check may refuse before it is marked probably wrong
 * (and `rulebook promote` refuses it): 5 %, one commit in twenty. A history the team merged is
 * mostly compliant with the rules it really follows; a drafted SECRET check that flagged a quarter
 * of a repository's commits (test sentinels) was wrong on every flag sampled.
 */
export const PROBABLY_WRONG_SHARE = 0.05;

function git(repoDir: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...GIT_HARDENING, '-C', repoDir, ...args], { env: hermeticGitEnv(), maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new OnboardError('E_TASK_REPO', `${repoDir}: git ${args[0] ?? ''} failed (${stderr.trim() || error.message}).`, { cause: error }));
    });
  });
}

/** `git cat-file --batch` for `commit:path` specs: the text of each, or undefined (binary, missing, too large). */
function readFiles(repoDir: string, specs: readonly string[]): Promise<(string | undefined)[]> {
  if (specs.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_HARDENING, '-C', repoDir, 'cat-file', '--batch'], { env: hermeticGitEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', () => {
      const output = Buffer.concat(chunks);
      const texts: (string | undefined)[] = [];
      let offset = 0;
      for (let index = 0; index < specs.length; index++) {
        const newline = output.indexOf(0x0a, offset);
        const header = output.subarray(offset, newline).toString('utf8').split(' ');
        if (header[1] === 'missing' || header.length < 3) {
          texts.push(undefined);
          offset = newline + 1;
          continue;
        }
        const size = Number(header[2]);
        const blob = output.subarray(newline + 1, newline + 1 + size);
        texts.push(header[1] === 'blob' && size <= MAX_FILE_BYTES && !blob.includes(0) ? blob.toString('utf8') : undefined);
        offset = newline + 1 + size + 1;
      }
      resolve(texts);
    });
    child.stdin.end(specs.map((spec) => `${spec}\n`).join(''));
  });
}

/** A commit as the actions that make it: a write for every file it adds or changes, a delete for every file it removes. */
async function commitActions(repoDir: string, commit: string, parent: string | undefined): Promise<{ actions: Action[]; existing: string[] }> {
  const diff = await git(repoDir, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--no-commit-id',
    '--name-status',
    ...(parent === undefined ? ['--root'] : [parent]),
    commit,
  ]);
  const fields = diff.split('\0').filter((field) => field !== '');
  const changes: { status: string; path: string }[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) changes.push({ status: fields[index] ?? '', path: fields[index + 1] ?? '' });
  const written = changes.filter((change) => change.status !== 'D');
  const texts = await readFiles(
    repoDir,
    written.map((change) => `${commit}:${change.path}`),
  );
  const actions: Action[] = [];
  written.forEach((change, index) => {
    const content = texts[index];
    if (content !== undefined) actions.push({ type: 'write', path: change.path, content });
  });
  for (const change of changes) if (change.status === 'D') actions.push({ type: 'delete', path: change.path });
  const existing = parent === undefined ? [] : (await git(repoDir, ['ls-tree', '-r', '-z', '--name-only', parent])).split('\0').filter((path) => path !== '');
  return { actions, existing };
}

/**
 * The drafted rulebook against the repository's own last `count` commits: what the gate would
 * have refused, commit by commit. No model, no key: the cheapest evidence that a check is right.
 * A check that refuses more than PROBABLY_WRONG_SHARE of the team's own commits is flagged as probably
 * wrong; a rule about commands (order, requires, command) is listed as not judged, never as passing.
 */
export async function checkHistory(repoDir: string, rulebook: Rulebook, count: number): Promise<HistoryCheck> {
  const log = await git(repoDir, ['log', '-z', `--max-count=${count}`, '--no-merges', '--format=%H %P%x1f%s', 'HEAD']).catch((error: unknown) => {
    throw new OnboardError('E_TASK_REPO', `${repoDir} has no commits to check; commit first, then run this again.`, { cause: error });
  });
  // Rules about commands (forbidden ones; ones that must pass before a commit): a commit holds files only.
  const notInHistory = rulesNotInHistory(rulebook);
  const unseen = new Set(notInHistory.map(({ rule }) => rule.id));
  const judged = rulebook.rules.filter((rule) => !unseen.has(rule.id));
  const book: Rulebook = { ...rulebook, rules: judged };
  const commits: CommitVerdict[] = [];
  for (const record of log.split('\0').filter((entry) => entry.trim() !== '')) {
    const [ids = '', subject = ''] = record.replace(/^\n/, '').split('\x1f');
    const [commit = '', parent] = ids.split(' ');
    const { actions, existing } = await commitActions(repoDir, commit, parent === '' ? undefined : parent);
    const results = judged.length === 0 || actions.length === 0 ? [] : await checkActions(actions, existing, book);
    // What is printed never holds a key in full: a commit message is the team's text, as `holdfast verify` masks it.
    const refusals = await Promise.all(
      results.filter((result) => !result.ok).map(async (result) => ({ ...result, detail: await redactSecrets(result.detail) })),
    );
    commits.push({ commit, subject: await redactSecrets(subject), refusals });
  }
  const rules = judged.map((rule) => {
    const fired = commits.filter((verdict) => verdict.refusals.some((result) => result.rule === rule.id)).length;
    return { id: rule.id, name: rule.name, commits: fired, probablyWrong: fired > PROBABLY_WRONG_SHARE * commits.length };
  });
  const unjudged = notInHistory.map(({ rule, why }) => `${rule.id} ${rule.name}: ${why} (the agent gate judges it live)`);
  const head = (await git(repoDir, ['rev-parse', 'HEAD'])).trim();
  return { head, commits, rules, unjudged };
}

/** The check as a record for `rulebook promote`, doctor and init (rule-trials.ts): per rule, its check's fingerprint and what history said. */
export function historyTrials(check: HistoryCheck, rulebook: Rulebook): RuleTrials {
  const fired = new Map(check.rules.map((rule) => [rule.id, rule]));
  const unseen = new Map(rulesNotInHistory(rulebook).map(({ rule, why }) => [rule.id, why]));
  const rules = Object.fromEntries(
    rulebook.rules.map((rule) => {
      const firing = fired.get(rule.id);
      const why = unseen.get(rule.id);
      const trial =
        why !== undefined || firing === undefined
          ? { check: checkFingerprint(rule.check), notInHistory: why ?? 'not judged' }
          : { check: checkFingerprint(rule.check), refused: firing.commits, probablyWrong: firing.probablyWrong };
      return [rule.id, trial];
    }),
  );
  return { version: 1, head: check.head, commits: check.commits.length, rules };
}

/** The history check as lines for a person: commit by commit, rule and detail, then the rules that look wrong. */
export function formatHistoryCheck(check: HistoryCheck): string[] {
  const lines = [`The rulebook against the last ${check.commits.length} commits (what the gate would have refused):`];
  for (const verdict of check.commits) {
    const head = `  ${verdict.commit.slice(0, 10)} ${verdict.subject.slice(0, 60)}`;
    // "passes" only when every rule was judged: a rule the history cannot show is not passed.
    if (verdict.refusals.length === 0)
      lines.push(`${head}: ${check.unjudged.length === 0 ? 'passes' : check.rules.length === 0 ? 'not judged' : 'no judged rule refuses it'}`);
    else {
      lines.push(`${head}: ${verdict.refusals.length} refusal${verdict.refusals.length === 1 ? '' : 's'}`);
      for (const result of verdict.refusals) lines.push(`      ${result.rule}: ${result.detail}`);
    }
  }
  for (const rule of check.rules)
    if (rule.probablyWrong)
      lines.push(
        `  ${rule.id} ${rule.name} refuses ${rule.commits} of ${check.commits.length} commits: probably wrong (more than ${PROBABLY_WRONG_SHARE * 100} % of the team's own history; a rule the team follows rarely refuses it); read its # draft note`,
      );
  for (const rule of check.unjudged) lines.push(`  not judged: ${rule}`);
  return lines;
}
