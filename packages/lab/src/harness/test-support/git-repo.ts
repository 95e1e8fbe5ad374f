import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway git repository with the given files committed, for an agent to work in. */
export function makeGitRepo(files: Readonly<Record<string, string>> = {}, prefix = 'holdfast-agent-repo-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'agent@holdfast.test');
  git(root, 'config', 'user.name', 'holdfast test');
  git(root, 'config', 'commit.gpgsign', 'false');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'start');
  return root;
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `git status --porcelain` lines, untracked files listed one by one. */
export function gitStatus(root: string): string[] {
  return git(root, 'status', '--porcelain', '--untracked-files=all')
    .split('\n')
    .filter((line) => line !== '');
}

export function readIfExists(root: string, path: string): string | undefined {
  const full = join(root, path);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}
