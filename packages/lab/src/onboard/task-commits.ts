import { hardenedGit } from '../sandbox/git.js';
import { isCodePath, isTestPath } from './file-kinds.js';
import { OnboardError } from './onboard-error.js';

/** A commit that looks like a good `tasks new --from-commit`: it changes code and ships tests for it. */
export interface TaskCommit {
  readonly commit: string;
  /** Git's abbreviation, unique in the repository. */
  readonly short: string;
  readonly subject: string;
  /** The test files it adds or changes: the hidden check the task would get. */
  readonly tests: readonly string[];
  /** The code files it adds, changes or deletes beside them: what the agent would have to write. */
  readonly code: readonly string[];
}

export interface TaskCommitScan {
  /** How many non-merge commits were looked at, newest first. */
  readonly scanned: number;
  /** The newest candidates, at most `offer` of them. */
  readonly offered: readonly TaskCommit[];
}

export interface TaskCommitOptions {
  /** How many non-merge commits back to look (default 100). */
  readonly scan?: number;
  /** How many candidates to keep (default 3). */
  readonly offer?: number;
  /** Folders whose files never count (holdfast's own folder). */
  readonly ignoreFolders?: readonly string[];
}

interface LoggedCommit {
  readonly commit: string;
  readonly parents: readonly string[];
  readonly short: string;
  readonly subject: string;
  readonly changes: readonly { readonly status: string; readonly path: string }[];
}

/** `git log -z --name-status` records: header fields split by 0x1f, then NUL-separated status/path pairs. */
function parseLog(output: string): LoggedCommit[] {
  return output
    .split('\x1e')
    .filter((record) => record !== '')
    .map((record) => {
      const [header = '', ...fields] = record.split('\0');
      const [commit = '', parents = '', short = '', subject = ''] = header.split('\x1f');
      const names = fields.map((field, index) => (index === 0 ? field.replace(/^\n/, '') : field)).filter((field) => field !== '');
      const changes: { status: string; path: string }[] = [];
      for (let index = 0; index + 1 < names.length; index += 2) changes.push({ status: names[index]!, path: names[index + 1]! });
      return { commit, parents: parents.split(' ').filter((parent) => parent !== ''), short, subject, changes };
    });
}

/**
 * The last few commits that would make a good task from the team's own history, screened with git
 * alone (no checkout, no test run): one parent, at least one test file added or changed, and code
 * changed beside it. Whether the tests really fail on the parent and pass on the commit is tried
 * only when the task is made (`tasks new --from-commit`), confined; this only says where to look.
 */
export async function findTaskCommits(repoDir: string, options: TaskCommitOptions = {}): Promise<TaskCommitScan> {
  const scan = options.scan ?? 100;
  const offer = options.offer ?? 3;
  const ignored = (path: string) => (options.ignoreFolders ?? []).some((folder) => path.startsWith(`${folder}/`));
  const output = await hardenedGit(
    ['log', '-z', '--no-merges', '--no-renames', `--max-count=${scan}`, '--format=%x1e%H%x1f%P%x1f%h%x1f%s', '--name-status', 'HEAD'],
    repoDir,
    {},
    (why, cause) => new OnboardError('E_TASK_REPO', `${repoDir}: ${why}; commit first, then run this again.`, { cause }),
  );
  const logged = parseLog(output);
  const offered: TaskCommit[] = [];
  for (const entry of logged) {
    if (offered.length >= offer) break;
    if (entry.parents.length !== 1) continue;
    const changes = entry.changes.filter((change) => !ignored(change.path));
    const tests = changes.filter((change) => (change.status === 'A' || change.status === 'M') && isTestPath(change.path)).map((change) => change.path);
    const code = changes.filter((change) => isCodePath(change.path)).map((change) => change.path);
    if (tests.length > 0 && code.length > 0) offered.push({ commit: entry.commit, short: entry.short, subject: entry.subject, tests, code });
  }
  return { scanned: logged.length, offered };
}

/** A screened commit with the command, typed at the repository root, that makes a task of it. */
export interface OfferedTaskCommit extends TaskCommit {
  readonly command: string;
}

function listed(paths: readonly string[]): string {
  return paths.length <= 4 ? paths.join(', ') : `${paths.slice(0, 4).join(', ')} and ${paths.length - 4} more`;
}

/** The screened commits as lines for a person: hash, subject, the tests it touched, the command; `cd` prefixes each command. */
export function formatTaskCommits(scan: { readonly scanned: number; readonly offered: readonly OfferedTaskCommit[] }, cd = ''): string[] {
  if (scan.offered.length === 0)
    return [
      `Tasks from your history: none of the last ${scan.scanned} commits changes code and ships a test beside it; make a task with`,
      '  holdfast tasks new --ticket TEXT --accept-test FILE --out DIR (the test the finished ticket passes).',
    ];
  const lines = [
    scan.offered.length === 1
      ? `Tasks from your history: a commit of the last ${scan.scanned} changes code and ships tests.`
      : `Tasks from your history: ${scan.offered.length} commits of the last ${scan.scanned} change code and ship tests.`,
    '  Each becomes a task whose hidden check is its tests (refused unless they fail on its parent and pass on it):',
  ];
  for (const offered of scan.offered) {
    lines.push(`  ${offered.short} ${offered.subject.slice(0, 72)}`);
    lines.push(`      tests: ${listed(offered.tests)}`);
    lines.push(`      ${cd}${offered.command}`);
  }
  return lines;
}
