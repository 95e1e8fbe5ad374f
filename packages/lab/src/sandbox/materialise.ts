import { constants, copyFileSync, chmodSync, linkSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { inside } from '@holdfast/gate';
import type { BaseRepo } from './base-repo.js';
import { removeTree } from './remove-tree.js';

/**
 * One arm's repository: a linked git worktree of the task's base repository (`git worktree list`
 * in the base shows it). Its git dir lives in the base, not in the work tree, so a command the
 * model runs (confined to `workDir`) cannot rewrite the files our own git reads.
 */
export interface SandboxRepo {
  readonly dir: string;
  readonly workDir: string;
  /** The worktree's own git dir (HEAD, index) inside the base's `worktrees/`. */
  readonly gitDir: string;
  /** HOME of the commands run here. */
  readonly homeDir: string;
  readonly base: BaseRepo;
  /** Files still hard-linked to the base; each is replaced by its own copy before anything could write it in place. */
  readonly linked: Set<string>;
  /** Emptied in its commands: the run's folder, with the other rounds and the bases. */
  readonly hidden: readonly string[];
}

/** The worktree's git dir in the base, named after the sandbox folder (unique within a run). */
export function worktreeGitDir(base: BaseRepo, dir: string): string {
  return join(base.gitDir, 'worktrees', basename(dir).replace(/[^A-Za-z0-9._-]+/g, '_'));
}

/**
 * Adds a worktree to the base without running git or copying a tree: the files git writes for
 * `git worktree add --detach` (HEAD, commondir, gitdir, an index copied from the base), the work
 * tree's files as hard links to the base's read-only ones, and node_modules as a link to the
 * task's snapshot. Synchronous on purpose: a few dozen cheap system calls, whatever node_modules holds.
 */
/**
 * The run's own folder holding this sandbox and its base (holdfast made it, `holdfast-…`): emptied
 * in the sandbox's commands, so the other rounds and the bases stay unseen under the trial's wide read.
 */
function runFolderOf(base: BaseRepo, dir: string): string[] {
  let shared = dirname(dir);
  while (!inside(base.workDir, shared) && dirname(shared) !== shared) shared = dirname(shared);
  return basename(shared).startsWith('holdfast-') ? [shared] : [];
}

export function materialiseSandbox(base: BaseRepo, dir: string): SandboxRepo {
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const workDir = join(real, 'work');
  const homeDir = join(real, 'home');
  const gitDir = worktreeGitDir(base, real);
  mkdirSync(workDir);
  mkdirSync(homeDir);
  mkdirSync(gitDir, { recursive: true });
  writeFileSync(join(gitDir, 'HEAD'), `${base.commit}\n`);
  writeFileSync(join(gitDir, 'commondir'), '../..\n');
  writeFileSync(join(gitDir, 'gitdir'), `${join(workDir, '.git')}\n`);
  copyFileSync(join(base.gitDir, 'index'), join(gitDir, 'index'));
  writeFileSync(join(workDir, '.git'), `gitdir: ${gitDir}\n`);
  for (const folder of base.folders) mkdirSync(join(workDir, folder));
  for (const file of base.files) linkSync(join(base.workDir, file), join(workDir, file));
  if (base.nodeModules !== undefined) symlinkSync(base.nodeModules, join(workDir, 'node_modules'));
  // Where the repository's own installed folders are bound read-only (empty here, ignored by git).
  for (const folder of base.installed ?? []) mkdirSync(join(workDir, folder.path), { recursive: true });
  return { dir: real, workDir, gitDir, homeDir, base, linked: new Set(base.files), hidden: runFolderOf(base, real) };
}

/** The repository's installed dependency folders, bound read-only over their places in this sandbox's work tree. */
export function dependencyMounts(repo: SandboxRepo): { dependencies?: { from: string; to: string }[] } {
  const installed = repo.base.installed ?? [];
  return installed.length > 0 ? { dependencies: installed.map((folder) => ({ from: folder.from, to: join(repo.workDir, folder.path) })) } : {};
}

/** Gives the sandbox its own copy of every file it still shares with the base. */
export function detachSandbox(repo: SandboxRepo): void {
  for (const file of repo.linked) {
    const path = join(repo.workDir, file);
    const copy = `${path}.holdfast-detach`;
    rmSync(copy, { force: true });
    copyFileSync(path, copy, constants.COPYFILE_EXCL);
    chmodSync(copy, statSync(path).mode | 0o200);
    renameSync(copy, path);
  }
  repo.linked.clear();
}

/** Removes the work tree and its entry in the base (what `git worktree remove --force` does). */
export function removeSandbox(base: BaseRepo, dir: string): void {
  removeTree(worktreeGitDir(base, dir));
  removeTree(dir);
}
