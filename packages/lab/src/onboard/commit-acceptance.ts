import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TaskCheck } from '@holdfast/core/contract';
import { GIT_HARDENING, hermeticGitEnv, installedDependencies, runAcceptance } from '../sandbox/index.js';
import type { Acceptance, Isolation } from '../sandbox/index.js';
import { isTestPath } from './file-kinds.js';
import { OnboardError } from './onboard-error.js';
import { resolveCommit, snapshotRepo } from './repo-snapshot.js';
import type { RepoSnapshot, SnapshotOptions } from './repo-snapshot.js';

/** How an acceptance check is tried while a task is made: confined like any sandbox command. */
export interface AcceptanceTrialOptions {
  readonly isolation: Isolation;
  readonly timeoutMs: number;
  /**
   * A node_modules folder installed for the repository: linked into the trial's work tree and bound
   * read-only, as `run --sandbox --node-modules` gives every arm, so tests that import packages run.
   */
  readonly nodeModules?: string;
  /**
   * The repository the task comes from: its installed dependencies (every `node_modules`, `.venv` or
   * `venv` folder git ignores there) are bound read-only into the trial at the same paths.
   */
  readonly installedIn?: string;
}

/** The trial's node_modules: a link to the installed folder, which the confined command may only read. */
function linkNodeModules(workDir: string, nodeModules: string): string {
  let real: string;
  try {
    real = realpathSync(nodeModules);
  } catch (error) {
    throw new OnboardError('E_TASK_ACCEPTANCE', `--node-modules ${nodeModules} cannot be read; pass a node_modules folder installed for the repository.`, {
      cause: error,
    });
  }
  if (!statSync(real).isDirectory())
    throw new OnboardError('E_TASK_ACCEPTANCE', `--node-modules ${nodeModules} is not a folder; pass a node_modules folder installed for the repository.`);
  const link = join(workDir, 'node_modules');
  if (existsSync(link))
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `the repository tracks files under node_modules/, so --node-modules ${nodeModules} cannot be linked there; leave them out with --exclude 'node_modules/**'.`,
    );
  symlinkSync(real, link);
  return real;
}

/** The repository's files without the hidden tests: what the agent sees. */
export function withoutHidden(files: Readonly<Record<string, string>>, acceptance: Acceptance): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([path]) => !Object.hasOwn(acceptance.files, path)));
}

/**
 * Runs an acceptance check on a repository state (path → content) in a throwaway folder: the
 * files, then the hidden tests, then the command, confined. What `tasks new` learns before it
 * writes anything: whether the check fails untouched, and passes when the ticket is done.
 */
export async function tryAcceptance(files: Readonly<Record<string, string>>, acceptance: Acceptance, options: AcceptanceTrialOptions): Promise<TaskCheck> {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-accept-trial-'));
  try {
    const workDir = join(dir, 'repo');
    const homeDir = join(dir, 'home');
    mkdirSync(homeDir, { recursive: true });
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(workDir, path)), { recursive: true });
      writeFileSync(join(workDir, path), content);
    }
    mkdirSync(workDir, { recursive: true });
    const readable = options.nodeModules !== undefined ? [linkNodeModules(workDir, options.nodeModules)] : undefined;
    const installed = options.nodeModules === undefined && options.installedIn !== undefined ? await installedDependencies(options.installedIn) : [];
    const dependencies = installed.map((path) => ({ from: join(options.installedIn!, path), to: join(workDir, path) }));
    for (const dependency of dependencies) mkdirSync(dependency.to, { recursive: true });
    return await runAcceptance({
      acceptance,
      workDir,
      homeDir,
      isolation: options.isolation,
      timeoutMs: options.timeoutMs,
      ...(readable !== undefined ? { readable } : {}),
      ...(dependencies.length > 0 ? { dependencies } : {}),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function git(repoDir: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...GIT_HARDENING, '-C', repoDir, ...args], { env: hermeticGitEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new OnboardError('E_TASK_REPO', `${repoDir}: git ${args.join(' ')} failed: ${stderr.trim() || error.message}`, { cause: error }));
    });
  });
}

export interface CommitTaskOptions extends AcceptanceTrialOptions, Omit<SnapshotOptions, 'commit'> {
  /** The command that runs the tests (default `npm test`). */
  readonly command?: string;
}

/** A task made from a real change: the parent as the repository, the message as the ticket, the change's tests as the hidden check. */
export interface CommitTask {
  readonly commit: string;
  /** The parent's files, without the hidden tests. */
  readonly snapshot: RepoSnapshot;
  /** The commit message. */
  readonly message: string;
  readonly acceptance: Acceptance;
  /** The check on the parent (fails) and on the commit (passes). */
  readonly untouched: TaskCheck;
  readonly done: TaskCheck;
  /** Tests the commit changed that the snapshot left out (over 1 MB, binary …): not part of the hidden check. */
  readonly dropped: RepoSnapshot['skipped'];
}

/** The package a Node test could not import (ESM or CommonJS wording), when that is why it failed. */
function missingPackage(output: string): string | undefined {
  const found = /Cannot find (?:package|module) '([^'./][^']*)'/.exec(output);
  if (found === null) return undefined;
  const name = found[1]!;
  return name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
}

function ending(check: TaskCheck): string {
  const how = check.exitCode !== undefined ? `exit code ${check.exitCode}` : (check.detail ?? 'it did not run');
  const tail = check.outputTail.trim().split('\n').slice(-8).join('\n');
  return tail === '' ? how : `${how}; its output ends:\n${tail}`;
}

/**
 * SWE-bench's method on the team's own history: the tests a commit added or changed become the
 * hidden acceptance check of a task whose repository is the commit's parent. Refused unless those
 * tests fail on the parent and pass on the commit (both run confined, before anything is written).
 */
export async function taskFromCommit(repoDir: string, ref: string, options: CommitTaskOptions): Promise<CommitTask> {
  const commit = await resolveCommit(repoDir, ref);
  const parents = (await git(repoDir, ['rev-list', '--parents', '-n', '1', commit])).trim().split(' ').slice(1);
  if (parents.length !== 1) {
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `${ref} has ${parents.length === 0 ? 'no parent' : `${parents.length} parents`}; pass a commit with exactly one parent.`,
    );
  }
  const changed = (await git(repoDir, ['diff', '--no-renames', '--name-only', '--diff-filter=AM', '-z', parents[0]!, commit]))
    .split('\0')
    .filter((path) => path !== '');
  // What the commit changed is what the task is about: kept whatever the budget, on the commit and on its parent.
  const keep = [...(options.keep ?? []), ...changed];
  const commitSnapshot = await snapshotRepo(repoDir, { ...options, keep, commit });
  const tests = changed.filter((path) => isTestPath(path) && Object.hasOwn(commitSnapshot.files, path));
  const dropped = commitSnapshot.skipped.filter((skip) => changed.includes(skip.path) && isTestPath(skip.path));
  if (tests.length === 0 && dropped.length > 0) {
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `${ref} changes tests, but each was left out of the snapshot (${dropped.map((skip) => `${skip.path}: ${skip.reason}`).join(', ')}), so none can be the hidden check; pick another commit${dropped.some((skip) => skip.reason === 'too-large') ? ', or raise --max-bytes' : ''}.`,
    );
  }
  if (tests.length === 0) {
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `${ref} adds or changes no test file (of ${changed.length} changed: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}); pick a commit that ships its tests.`,
    );
  }
  const acceptance: Acceptance = {
    command: options.command ?? 'npm test',
    files: Object.fromEntries(tests.map((path) => [path, commitSnapshot.files[path]!])),
  };
  const parent = await snapshotRepo(repoDir, { ...options, keep, commit: parents[0]! });
  const snapshot: RepoSnapshot = { ...parent, files: withoutHidden(parent.files, acceptance) };
  const trial = { ...options, installedIn: repoDir };
  const untouched = await tryAcceptance(snapshot.files, acceptance, trial);
  if (untouched.passed) {
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `the tests ${ref} added or changed (${tests.join(', ')}) already pass on its parent with \`${acceptance.command}\`, so they cannot tell a done ticket from an untouched one.`,
    );
  }
  const done = await tryAcceptance(withoutHidden(commitSnapshot.files, acceptance), acceptance, trial);
  const missingNodePackage = options.nodeModules === undefined ? missingPackage(done.outputTail) : undefined;
  if (!done.passed && done.detail !== undefined && done.exitCode !== undefined && missingNodePackage === undefined) {
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `the tests ${ref} added or changed (${tests.join(', ')}) could not run on the commit with \`${acceptance.command}\`: ${done.detail}.`,
    );
  }
  if (!done.passed) {
    const missing = options.nodeModules === undefined ? missingPackage(done.outputTail) : undefined;
    throw new OnboardError(
      'E_TASK_ACCEPTANCE',
      `the tests ${ref} added or changed (${tests.join(', ')}) do not pass on the commit itself with \`${acceptance.command}\` (${ending(done)}); ${
        missing !== undefined
          ? `they need the package "${missing}", which the trial does not have: give --node-modules DIR, a node_modules folder installed for the repository.`
          : 'pass --accept the command that runs them, or pick another commit.'
      }`,
    );
  }
  const message = await git(repoDir, ['log', '-1', '--format=%B', commit]);
  return { commit, snapshot, message, acceptance, untouched, done, dropped };
}
