import { GIT_HARDENING } from '../../sandbox/git.js';
import { execFile } from 'node:child_process';
import { HoldfastError } from '../../contract/index.js';

/**
 * A repository a session worked in. Without `gitDir`, git finds the repository from the work tree
 * (a `.git` folder, or the `.git` file of a linked worktree); the loop's sandboxes keep their git
 * dir beside the work tree, so a command the model runs cannot rewrite our git's config.
 */
export interface RepoLocation {
  readonly workTree: string;
  readonly gitDir?: string;
}

export class RepoGitError extends HoldfastError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_REPO_GIT', message, options);
  }
}

/** Fixed identity and date, so the same session makes the same commit hashes. */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'holdfast agent',
  GIT_AUTHOR_EMAIL: 'agent@holdfast.invalid',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'holdfast agent',
  GIT_COMMITTER_EMAIL: 'agent@holdfast.invalid',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
};

/** Runs git on `repo` without a shell, a user config or hooks; stdout, or RepoGitError with git's last words. */
export function repoGit(repo: RepoLocation, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const location = repo.gitDir !== undefined ? [`--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree}`] : [];
  const argv = [...GIT_HARDENING, ...location, ...args];
  const verb = args.find((arg) => !arg.startsWith('-')) ?? '';
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      argv,
      {
        cwd: repo.workTree,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: '/nonexistent',
          LANG: 'C',
          TZ: 'UTC',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_TERMINAL_PROMPT: '0',
          ...IDENTITY,
          ...extraEnv,
        },
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error !== null) {
          const why = stderr.trim().split('\n').slice(-3).join(' ') || error.message;
          reject(new RepoGitError(`git ${verb} failed: ${why}`, { cause: error }));
          return;
        }
        resolve(stdout);
      },
    );
  });
}

/** NUL-separated git output as a list, without the empty tail. */
export function nulList(output: string): string[] {
  return output.split('\0').filter((entry) => entry.length > 0);
}

export interface NameStatus {
  readonly status: 'A' | 'M' | 'D' | 'T' | 'other';
  readonly path: string;
}

/** Reads `--name-status -z --no-renames` output: a status, then its path. */
export function readNameStatus(output: string): NameStatus[] {
  const fields = nulList(output);
  const entries: NameStatus[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const code = fields[index]!.charAt(0);
    const status = code === 'A' || code === 'M' || code === 'D' || code === 'T' ? code : 'other';
    entries.push({ status, path: fields[index + 1]! });
  }
  return entries;
}
