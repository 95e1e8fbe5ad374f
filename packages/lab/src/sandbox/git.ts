import { execFile } from 'node:child_process';
import { SandboxError } from './errors.js';

export interface GitLocation {
  readonly gitDir: string;
  readonly workTree: string;
}

/** The author of every sandbox commit; the date is fixed so the same actions give the same hashes. */
export const SANDBOX_IDENTITY = {
  GIT_AUTHOR_NAME: 'holdfast agent',
  GIT_AUTHOR_EMAIL: 'agent@holdfast.invalid',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'holdfast agent',
  GIT_COMMITTER_EMAIL: 'agent@holdfast.invalid',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
} as const;

/**
 * Settings that keep git from running anything the repository asks for. Commands the model runs
 * can write inside the work tree, so nothing there (hooks, fsmonitor, filters) may steer our git.
 */
export const GIT_HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.quotePath=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'gc.auto=0',
  '-c',
  'maintenance.auto=false',
  '-c',
  'init.defaultBranch=main',
];

/**
 * The environment of every git holdfast runs for itself: no user or system config or attributes, no
 * terminal prompt, C locale, UTC. `extra` adds an identity or GIT_INDEX_FILE and the like.
 */
export function hermeticGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    LANG: 'C',
    TZ: 'UTC',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ATTR_NOSYSTEM: '1',
    ...extra,
  };
}

/**
 * Runs git hardened (GIT_HARDENING) in `cwd` with the hermetic environment plus `extraEnv`; its
 * stdout on success, else the error `failure` makes of the command's verb and git's last words.
 */
export function hardenedGit(
  args: readonly string[],
  cwd: string,
  extraEnv: Record<string, string>,
  failure: (why: string, cause: Error) => Error,
): Promise<string> {
  const verb = args.find((arg) => !arg.startsWith('-')) ?? '';
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...GIT_HARDENING, ...args],
      { cwd, env: hermeticGitEnv(extraEnv), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error !== null) reject(failure(`git ${verb} failed: ${stderr.trim().split('\n').slice(-3).join(' ') || error.message}`, error));
        else resolve(stdout);
      },
    );
  });
}

/** Runs git on a repository whose git dir lives outside its work tree; stdout on success, SandboxError otherwise. */
export function git(location: GitLocation, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<string> {
  return runGit([`--git-dir=${location.gitDir}`, `--work-tree=${location.workTree}`, ...args], location.workTree, extraEnv);
}

/** Creates an empty repository whose work tree is given on every later call, not found by git. */
export function gitInit(gitDir: string, cwd: string): Promise<string> {
  return runGit(['init', '--quiet', '--bare', '--template=', '--initial-branch=main', gitDir], cwd, {});
}

function runGit(args: readonly string[], cwd: string, extraEnv: Record<string, string>): Promise<string> {
  return hardenedGit(args, cwd, { ...SANDBOX_IDENTITY, ...extraEnv }, (why, cause) => new SandboxError('E_SANDBOX_GIT', why, { cause }));
}
