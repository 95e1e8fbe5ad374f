import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A repository's installed vitest, as `pnpm install` would leave it, made offline from holdfast's own
 * install: a copy of its node_modules (hard links where the file system allows, so it costs no space),
 * not links into it. A trial has a private /tmp, so a link into a checkout that itself lives under
 * /tmp (as a CI clone may) would point at nothing inside the trial.
 */
export function installVitestFrom(holdfastRoot: string, repo: string): void {
  const from = join(holdfastRoot, 'node_modules');
  const to = join(repo, 'node_modules');
  const linked = spawnSync('cp', ['-al', from, to], { stdio: 'ignore' });
  if (linked.status !== 0) {
    const copied = spawnSync('cp', ['-a', from, to], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (copied.status !== 0) throw new Error(`could not copy ${from} into the test repository: ${copied.stderr}`);
  }
  mkdirSync(join(to, '.bin'), { recursive: true });
  spawnSync('rm', ['-f', join(to, '.bin', 'vitest')]);
  symlinkSync('../vitest/vitest.mjs', join(to, '.bin', 'vitest'));
}
