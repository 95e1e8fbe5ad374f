import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Arm } from '@holdfast/core/contract';
import { BASE_BRANCH } from './base-repo.js';
import { SandboxError } from './errors.js';
import { git, gitInit } from './git.js';
import { detachSandbox } from './materialise.js';
import type { SandboxRepo } from './materialise.js';
import { safeName } from './safe-name.js';

/**
 * Keeps an arm's repository under `keepDir` as a standalone repository that outlives this run's
 * base, so a reviewer can open it after the run; refuses to overwrite one already there.
 */
export async function keepSandbox(keepDir: string, repo: SandboxRepo, roundId: string, arm: Arm): Promise<string> {
  const destination = resolve(keepDir, safeName(roundId), arm);
  if (existsSync(destination)) throw new SandboxError('E_SANDBOX_KEEP', `cannot keep the sandbox: ${destination} already exists.`);
  detachSandbox(repo);
  // The work tree copied, the history pushed in.
  mkdirSync(resolve(destination, '..'), { recursive: true });
  await cp(repo.workDir, destination, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => source !== join(repo.workDir, '.git') && source !== join(repo.workDir, 'node_modules'),
  });
  const gitDir = join(destination, '.git');
  await gitInit(gitDir, destination);
  await git({ gitDir: repo.gitDir, workTree: repo.workDir }, ['push', '--quiet', gitDir, `HEAD:refs/heads/${BASE_BRANCH}`]);
  const kept = { gitDir, workTree: destination };
  await git(kept, ['config', 'core.bare', 'false']);
  await git(kept, ['reset', '--quiet']);
  writeFileSync(join(gitDir, 'description'), `holdfast sandbox ${roundId} (${arm} arm)\n`);
  if (repo.base.nodeModules !== undefined) {
    mkdirSync(join(gitDir, 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'info', 'exclude'), '/node_modules\n');
  }
  return destination;
}
