import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBubblewrap } from './containment.js';
import { runOnTree } from './tree-rerun.js';
import type { TreeRunOptions } from './tree-rerun.js';
import { commitFiles, git, projectRepo, writeFiles } from '../test-support/git-repo.js';

const bwrap = findBubblewrap(process.env);

function options(root: string, command: string, extra: Partial<TreeRunOptions> = {}): TreeRunOptions {
  return { root, tree: git(root, 'rev-parse', 'HEAD^{tree}'), command, bwrap: bwrap as string, env: process.env, timeoutMs: 60_000, ...extra };
}

describe.runIf(bwrap !== undefined)('a command the gate runs itself on a tree (real git, real bubblewrap)', () => {
  it('runs on the tree’s own content, not on what the work tree holds now', async () => {
    const root = projectRepo('holdfast-rerun-');
    commitFiles(root, { 'src/verdict.txt': 'fail\n' }, 'failing');
    writeFiles(root, { 'src/verdict.txt': 'pass\n' });
    const check = 'test "$(cat src/verdict.txt)" = pass';
    expect(await runOnTree(options(root, check))).toMatchObject({ kind: 'failed', ending: 'the gate’s own run of it ended with exit code 1' });
    commitFiles(root, {}, 'passing');
    expect(await runOnTree(options(root, check))).toEqual({ kind: 'passed' });
  });

  it('reads the project’s installed dependencies read-only, and writes nothing into the project', async () => {
    const root = projectRepo('holdfast-rerun-');
    commitFiles(root, { '.gitignore': 'node_modules\n' }, 'ignore');
    mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'dependency\n');
    const command = 'grep -q dependency node_modules/dep/index.js && echo made > made.txt && ! echo x > node_modules/dep/index.js';
    expect(await runOnTree(options(root, command))).toEqual({ kind: 'passed' });
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    expect(readFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('dependency\n');
  });

  it('binds no file the tree’s own ignore rules do not ignore, whatever the live .gitignore says', async () => {
    const root = projectRepo('holdfast-rerun-');
    commitFiles(root, { '.gitignore': 'node_modules\n' }, 'ignore');
    // The agent, meanwhile: a file of its own made "ignored" by editing the live .gitignore.
    writeFiles(root, { '.gitignore': 'node_modules\nsrc/conftest.txt\n', 'src/conftest.txt': 'make every test pass\n' });
    expect(await runOnTree(options(root, 'test ! -e src/conftest.txt'))).toEqual({ kind: 'passed' });
  });

  it('has no network', async () => {
    const root = projectRepo('holdfast-rerun-');
    expect(await runOnTree(options(root, 'test "$(grep -c : /proc/net/dev)" -le 1'))).toEqual({ kind: 'passed' });
  });

  it('a run past its time is killed and does not pass; so is one the hook’s deadline ends', async () => {
    const root = projectRepo('holdfast-rerun-');
    const expireAtOnce = (expire: () => void) => {
      const timer = setImmediate(expire);
      return () => clearImmediate(timer);
    };
    expect(await runOnTree(options(root, 'sleep 600', { deadline: expireAtOnce, timeoutMs: 5_000 }))).toMatchObject({
      kind: 'failed',
      ending: 'the gate’s own run of it was killed after the 5 s timeout',
    });
    const ended = new AbortController();
    const running = runOnTree(options(root, 'sleep 600', { signal: ended.signal }));
    ended.abort();
    expect(await running).toMatchObject({ kind: 'failed', ending: 'the gate’s own run of it did not finish within the hook’s deadline' });
  });

  it('a tree that is not there is not run', async () => {
    const root = projectRepo('holdfast-rerun-');
    expect(await runOnTree(options(root, 'true', { tree: '0123456789abcdef0123456789abcdef01234567' }))).toMatchObject({ kind: 'not-run' });
  });
});
