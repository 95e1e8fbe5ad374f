import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxResult } from '@holdfast/core/contract';
import { repoGit } from '../session/repo-git.js';
import type { RepoLocation } from '../session/repo-git.js';
import { capText } from '../../sandbox/index.js';

/**
 * What the arm left behind against its setup commit: the commits it made (oldest first) and the
 * diff of the work tree, committed or not, untracked files included, through a private index so
 * the agent's own index is left as it was.
 */
export async function finalDiff(repo: RepoLocation, baseCommit: string, capBytes: number): Promise<Pick<SandboxResult, 'commits' | 'diff' | 'changedPaths'>> {
  const commits = await commitsSince(repo, baseCommit);
  const scratch = mkdtempSync(join(repo.workTree, '..', 'final-diff-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await repoGit(repo, ['read-tree', baseCommit], env);
    await repoGit(repo, ['add', '--all'], env);
    const flags = ['--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];
    const text = await repoGit(repo, ['diff', ...flags, baseCommit], env);
    const names = await repoGit(repo, ['diff', ...flags, '--name-only', '-z', baseCommit], env);
    return { commits, diff: capText(text, capBytes), changedPaths: names.split('\0').filter((name) => name.length > 0) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The commits the arm made since `baseCommit`, oldest first. */
async function commitsSince(repo: RepoLocation, baseCommit: string): Promise<SandboxResult['commits']> {
  const log = await repoGit(repo, ['log', '--reverse', '--format=%H%x00%s', `${baseCommit}..HEAD`]).catch(() => '');
  return log
    .split('\n')
    .filter((line) => line.includes('\0'))
    .map((line, index) => {
      const [hash = '', message = ''] = line.split('\0');
      return { index, hash, message };
    });
}

/** A tree over its size cap: its commits only, with no work-tree diff (staging it would copy it into git's objects). */
export async function overCapDiff(repo: RepoLocation, baseCommit: string): Promise<Pick<SandboxResult, 'commits' | 'diff' | 'changedPaths'>> {
  return { commits: await commitsSince(repo, baseCommit), diff: { text: '', truncated: false, bytes: 0 }, changedPaths: [] };
}
