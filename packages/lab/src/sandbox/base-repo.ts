import { chmod, mkdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TaskInfo } from '@holdfast/core/contract';
import { confinePath } from './confine.js';
import { SandboxError } from './errors.js';
import { git, gitInit } from './git.js';
import { installedDependencies } from './installed-dependencies.js';
import { snapshotNodeModules } from './node-modules-snapshot.js';

/**
 * A task's repository state as one commit, built once per run. Sandboxes hard-link its files and
 * borrow its objects, so it stays read-only: its files are mode 0444 and nothing writes to it.
 */
export interface BaseRepo {
  readonly taskId: string;
  readonly workDir: string;
  readonly gitDir: string;
  readonly commit: string;
  /** Tracked files, forward slashes, sorted. */
  readonly files: readonly string[];
  /** Folders those files need, parents before children. */
  readonly folders: readonly string[];
  /** The task's node_modules snapshot, when it has one: every sandbox links to it. */
  readonly nodeModules?: string;
  /**
   * The repository's own installed dependency folders (node_modules, .venv, venv that git ignores there):
   * `from` on the host, `path` in the work tree; bound read-only into every command's trial.
   */
  readonly installed?: readonly { readonly from: string; readonly path: string }[];
}

export interface BaseRepoOptions {
  /** A node_modules folder installed for the task's repository, snapshotted once here. */
  readonly nodeModules?: string;
  /** The repository the task was made from: its installed dependency folders are bound read-only, never copied. */
  readonly installedIn?: string;
}

export const BASE_BRANCH = 'main';

/** The installed dependency folders of the repository a task was made from, as `tasks new` binds them in its trial. */
async function installedFolders(task: TaskInfo, installedIn: string | undefined): Promise<{ from: string; path: string }[]> {
  if (installedIn === undefined) return [];
  let repo: string;
  try {
    repo = await realpath(installedIn);
  } catch (error) {
    throw new SandboxError('E_SANDBOX_SETUP', `task ${task.id}: --installed-in ${installedIn} cannot be read; pass the repository the task was made from.`, {
      cause: error,
    });
  }
  const folders = await installedDependencies(repo);
  return folders.map((path) => ({ from: join(repo, path), path }));
}

export async function buildBaseRepo(dir: string, task: TaskInfo, options: BaseRepoOptions = {}): Promise<BaseRepo> {
  const workDir = join(dir, 'work');
  const gitDir = join(dir, 'git');
  await mkdir(workDir, { recursive: true });
  const root = await realpath(workDir);
  const files: string[] = [];
  for (const [path, content] of Object.entries(task.files)) {
    // Task files may come from a recorded run file, so they are confined like the model's writes.
    const confined = confinePath(root, path);
    if (!confined.ok) throw new SandboxError('E_SANDBOX_SETUP', `task ${task.id}: file "${path}" cannot be placed: ${confined.reason}.`);
    await mkdir(dirname(confined.absolute), { recursive: true });
    await writeFile(confined.absolute, content);
    files.push(confined.relative);
  }
  const location = { gitDir, workTree: root };
  await gitInit(gitDir, dir);
  await git(location, ['config', 'core.bare', 'false']);
  await git(location, ['add', '--all']);
  await git(location, ['commit', '--quiet', '--allow-empty', '--no-verify', '-m', `${task.id}: the task's repository state`]);
  const commit = (await git(location, ['rev-parse', 'HEAD'])).trim();
  // node_modules is the task's installed toolchain, not the model's work: never in a diff or a commit.
  await mkdir(join(gitDir, 'info'), { recursive: true });
  const installed = await installedFolders(task, options.installedIn);
  await writeFile(join(gitDir, 'info', 'exclude'), ['/node_modules', ...installed.map((folder) => `/${folder.path}`), ''].join('\n'));
  let nodeModules: string | undefined;
  if (options.nodeModules !== undefined) {
    nodeModules = join(await realpath(dir), 'node_modules');
    try {
      snapshotNodeModules(options.nodeModules, nodeModules);
    } catch (error) {
      throw new SandboxError(
        'E_SANDBOX_SETUP',
        `task ${task.id}: cannot snapshot node_modules from ${options.nodeModules}: ${error instanceof Error ? error.message : String(error)}.`,
        { cause: error },
      );
    }
  }
  for (const file of files) await chmod(join(root, file), 0o444);
  files.sort();
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) folders.add(parts.slice(0, depth).join('/'));
  }
  return {
    taskId: task.id,
    workDir: root,
    gitDir: await realpath(gitDir),
    commit,
    files,
    ...(nodeModules !== undefined ? { nodeModules } : {}),
    ...(installed.length > 0 ? { installed } : {}),
    folders: [...folders].sort((left, right) => left.split('/').length - right.split('/').length || (left < right ? -1 : 1)),
  };
}
