import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRulebook } from '@holdfast/core/test-support';
import { judgeFinalState } from './final-state.js';
import { repoGit } from './session/repo-git.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function put(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

async function commitAll(root: string, message: string): Promise<string> {
  await repoGit({ workTree: root }, ['add', '--all']);
  await repoGit({ workTree: root }, ['commit', '--quiet', '--no-verify', '-m', message]);
  return (await repoGit({ workTree: root }, ['rev-parse', 'HEAD'])).trim();
}

async function baseRepo(): Promise<{ root: string; base: string }> {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-final-test-'));
  made.push(root);
  await repoGit({ workTree: root }, ['init', '--quiet', '--initial-branch=main']);
  put(root, 'package.json', '{"name":"x"}\n');
  put(root, 'src/lib/http.ts', 'export const get = (url: string) => fetch(url);\n');
  put(root, 'src/features/orders.ts', 'export const orders = [];\n');
  return { root, base: await commitAll(root, 'base') };
}

describe('judgeFinalState', () => {
  it('finds nothing in an untouched repository', async () => {
    const { root, base } = await baseRepo();
    expect(await judgeFinalState(root, base, defaultRulebook)).toEqual([]);
  });

  it('judges uncommitted and untracked changes in the work tree against the base, R3 over the whole change', async () => {
    const { root, base } = await baseRepo();
    put(root, 'src/features/orders.ts', 'export const orders = [];\nconsole.log(orders);\n');
    put(root, 'docs/notes.md', 'hello\n');
    put(root, 'src/features/refunds.ts', 'export const refunds = 1;\n');
    const landed = await judgeFinalState(root, base, defaultRulebook);
    expect(landed.map((violation) => [violation.rule, violation.path, violation.commit])).toEqual([
      ['R2', 'docs/notes.md', undefined],
      ['R4', 'src/features/orders.ts', undefined],
      ['R3', 'src/features/refunds.ts', undefined],
    ]);
  });

  it('a module whose test landed in a later commit is no R3 violation', async () => {
    const { root, base } = await baseRepo();
    put(root, 'src/features/refunds.ts', 'export const refunds = 1;\n');
    await commitAll(root, 'module');
    put(root, 'src/features/refunds.test.ts', 'import "./refunds";\n');
    await commitAll(root, 'test');
    expect(await judgeFinalState(root, base, defaultRulebook)).toEqual([]);
  });

  it('a violation committed and then removed still landed, named by its commit', async () => {
    const { root, base } = await baseRepo();
    put(root, 'src/features/orders.ts', 'console.log("debug");\n');
    const first = await commitAll(root, 'debug');
    put(root, 'src/features/orders.ts', 'export const orders = [];\n');
    await commitAll(root, 'clean up');
    const landed = await judgeFinalState(root, base, defaultRulebook);
    expect(landed).toEqual([expect.objectContaining({ rule: 'R4', path: 'src/features/orders.ts', commit: first })]);
  });

  it('reads a linked git worktree (a .git file), as an agent arm’s sandbox may be', async () => {
    const { root, base } = await baseRepo();
    const linked = `${root}-arm`;
    made.push(linked);
    await repoGit({ workTree: root }, ['worktree', 'add', '--quiet', '-b', 'arm', linked, base]);
    put(linked, 'src/features/orders.ts', 'console.log(1);\n');
    const committed = await commitAll(linked, 'debug');
    expect(await judgeFinalState(linked, base, defaultRulebook)).toEqual([expect.objectContaining({ rule: 'R4', commit: committed })]);
    expect(await judgeFinalState(root, base, defaultRulebook)).toEqual([]);
  });

  it('judges R6 from the timeline: only a passing test run after the last change counts', async () => {
    const { root, base } = await baseRepo();
    put(root, 'src/features/orders.ts', 'export const orders = [1];\n');
    const tested = await commitAll(root, 'tested');
    put(root, 'src/features/orders.ts', 'export const orders = [2];\n');
    const failing = await commitAll(root, 'tests failed');
    put(root, 'src/features/orders.ts', 'export const orders = [3];\n');
    const unseen = await commitAll(root, 'made through the shell');
    const landed = await judgeFinalState(root, base, defaultRulebook, {
      timeline: [
        { type: 'change' },
        { type: 'test', cmd: 'npm test', passed: true },
        { type: 'commit', hash: tested },
        { type: 'change' },
        { type: 'test', cmd: 'npm test', passed: false },
        { type: 'commit', hash: failing },
      ],
    });
    expect(landed.map((violation) => [violation.rule, violation.commit])).toEqual([
      ['R6', failing],
      ['R6', unseen],
    ]);
    expect(landed[1]?.detail).toContain('not made through a call holdfast saw');
  });

  it('decodes landed files by their byte-order mark, as the gate does: a UTF-16 console.log landed, in the tree and in a commit', async () => {
    const { root, base } = await baseRepo();
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    writeFileSync(join(root, 'src/features/orders.ts'), utf16('export const orders = [];\nconsole.log(orders);\n'));
    const committed = await commitAll(root, 'utf-16');
    const landed = await judgeFinalState(root, base, defaultRulebook);
    expect(landed.map((violation) => [violation.rule, violation.path, violation.commit])).toEqual([['R4', 'src/features/orders.ts', committed]]);
  });

  it('undecodable text is a violation of every content rule that reaches it; an image no such rule reaches is not', async () => {
    const { root, base } = await baseRepo();
    writeFileSync(join(root, 'src/features/orders.ts'), Buffer.from([0x65, 0x78, 0xff, 0xfe, 0xfd, 0x0a, 0xc3]));
    mkdirSync(join(root, 'src/assets'));
    writeFileSync(join(root, 'src/assets/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xfe]));
    const landed = await judgeFinalState(root, base, defaultRulebook);
    const onOrders = landed.filter((violation) => violation.path === 'src/features/orders.ts');
    expect(onOrders.map((violation) => violation.rule).sort()).toEqual(['R4', 'R5']);
    expect(onOrders[0]?.detail).toContain('not valid UTF-8');
    expect(landed.filter((violation) => violation.path === 'src/assets/logo.png')).toEqual([]);
  });
});
