import { constants, copyFileSync, chmodSync, linkSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_BRANCH } from './base-repo.js';
import type { BaseRepo } from './base-repo.js';

/**
 * One arm's repository. The git dir sits beside the work tree, not in it, so a command the model
 * runs (confined to `workDir`) cannot rewrite the config our own git reads.
 */
export interface SandboxRepo {
  readonly dir: string;
  readonly workDir: string;
  readonly gitDir: string;
  /** HOME and TMPDIR of the commands run here. */
  readonly homeDir: string;
  readonly base: BaseRepo;
  /** Files still hard-linked to the base; each is replaced by its own copy before anything could write it in place. */
  readonly linked: Set<string>;
}

/**
 * Derives a fresh repository from the base without copying a tree: the working files are hard
 * links, the objects are borrowed through `objects/info/alternates`, and the git dir is the
 * handful of files git needs. Synchronous on purpose: it is a few dozen cheap system calls.
 */
export function materialiseSandbox(base: BaseRepo, dir: string): SandboxRepo {
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const workDir = join(real, 'work');
  const gitDir = join(real, 'git');
  const homeDir = join(real, 'home');
  mkdirSync(workDir);
  mkdirSync(homeDir);
  mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
  mkdirSync(join(gitDir, 'refs', 'heads'), { recursive: true });
  writeFileSync(join(gitDir, 'HEAD'), `ref: refs/heads/${BASE_BRANCH}\n`);
  writeFileSync(join(gitDir, 'refs', 'heads', BASE_BRANCH), `${base.commit}\n`);
  writeFileSync(join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n');
  writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), `${join(base.gitDir, 'objects')}\n`);
  copyFileSync(join(base.gitDir, 'index'), join(gitDir, 'index'));
  for (const folder of base.folders) mkdirSync(join(workDir, folder));
  for (const file of base.files) linkSync(join(base.workDir, file), join(workDir, file));
  return { dir: real, workDir, gitDir, homeDir, base, linked: new Set(base.files) };
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

export function removeSandbox(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
}
