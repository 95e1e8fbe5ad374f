import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { gateMain as main } from '../test-support/gate-main.js';
import { commitFiles, git, gitRun, gitTestEnv, projectRepo } from '../test-support/git-repo.js';

const INSTALLED = ['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json'];

/** A project whose rulebook (the shipped one: R2 allows writes under src/ only) is committed, with holdfast installed for every agent and git. */
async function installed(): Promise<string> {
  const root = projectRepo('holdfast-install-commit-');
  const io = memoryIo({ cwd: root, env: gitTestEnv() });
  expect(await main(['install', 'claude-code', 'codex', 'gemini-cli', 'git'], io)).toBe(0);
  return root;
}

// Each commit starts the real hooks (node, the bundle, git): minutes on a loaded machine, never a verdict on time.
describe('committing the install itself (issue 42, item 7)', { timeout: 300_000 }, () => {
  it('passes the pre-commit and reference-transaction hooks with the hooks on, when the files are what install wrote', async () => {
    const root = await installed();
    git(root, 'add', ...INSTALLED);
    const commit = gitRun(root, ['commit', '-m', 'install holdfast']);
    expect(commit.stderr).toBe('');
    expect(commit.status).toBe(0);
    expect(git(root, 'log', '-1', '--format=%s')).toBe('install holdfast');
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual([...INSTALLED].sort());
    // The same commit brought onto another branch by cherry-pick: only the reference-transaction hook judges it.
    git(root, 'checkout', '-q', '-b', 'other', 'HEAD~1');
    commitFiles(root, { 'src/other.ts': 'export const other = 1;\n', 'src/other.test.ts': "import './other';\n" }, 'other work');
    const picked = gitRun(root, ['cherry-pick', 'main']);
    expect(picked.status).toBe(0);
    expect(git(root, 'log', '-1', '--format=%s')).toBe('install holdfast');
  });

  it.each([
    ['--observe', (text: string) => text.replaceAll('\\"--rulebook\\"', '\\"--observe\\" \\"--rulebook\\"')],
    ['one more setting', (text: string) => text.replace('{\n', '{\n  "disableAllHooks": true,\n')],
    ['a byte off', (text: string) => `${text} `],
  ])('refuses an altered copy (%s) by the rulebook, as any file outside src/', async (_what, alter) => {
    const root = await installed();
    const file = join(root, '.claude', 'settings.json');
    const altered = alter(readFileSync(file, 'utf8'));
    expect(altered).not.toBe(readFileSync(file, 'utf8'));
    writeFileSync(file, altered);
    git(root, 'add', ...INSTALLED);
    const commit = gitRun(root, ['commit', '-m', 'install holdfast']);
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toMatch(/R2 SCOPE: write to "\.claude\/settings\.json" is outside the allowed paths/);
    expect(commit.stderr).not.toMatch(/\.codex\/hooks\.json/);
    expect(git(root, 'log', '-1', '--format=%s')).toBe('base');
    // With every hook off the commit lands, but main moved outside any transaction the gate saw: the next ref
    // update judges the same altered file and moves main back (refs moved outside git, GATE REF).
    const skipped = gitRun(root, ['-c', 'core.hooksPath=/dev/null', 'commit', '-m', 'install holdfast'], {});
    expect(skipped.status).toBe(0);
    git(root, 'checkout', '-q', '-b', 'other', 'HEAD~1');
    const next = gitRun(root, ['commit', '--allow-empty', '-m', 'other work']);
    expect(next.stderr).toMatch(/R2 SCOPE: write to "\.claude\/settings\.json"/);
    expect(git(root, 'log', '-1', '--format=%s', 'main')).toBe('base');
  });
});
