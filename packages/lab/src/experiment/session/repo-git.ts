import { hardenedGit, SANDBOX_IDENTITY } from '../../sandbox/git.js';
import { HoldfastError } from '@holdfast/core/contract';

/**
 * A repository a session worked in. Without `gitDir`, git finds the repository from the work tree
 * (a `.git` folder, or the `.git` file of a linked worktree); the loop's sandboxes keep their git
 * dir beside the work tree, so a command the model runs cannot rewrite our git's config.
 */
export interface RepoLocation {
  readonly workTree: string;
  readonly gitDir?: string;
}

class RepoGitError extends HoldfastError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_REPO_GIT', message, options);
  }
}

/** Runs git on `repo` without a shell, a user config or hooks; stdout, or RepoGitError with git's last words. */
export function repoGit(repo: RepoLocation, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const location = repo.gitDir !== undefined ? [`--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree}`] : [];
  // The fixed identity and date of sandbox commits: the same session makes the same commit hashes.
  return hardenedGit([...location, ...args], repo.workTree, { ...SANDBOX_IDENTITY, ...extraEnv }, (why, cause) => new RepoGitError(why, { cause }));
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
