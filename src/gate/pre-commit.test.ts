import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import { memoryIo } from '../test-support/memory-io.js';

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-git-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['config', 'user.email', 'gate@example.test'], { cwd: root });
  execFileSync('git', ['config', 'user.name', 'gate'], { cwd: root });
  mkdirSync(join(root, 'src'));
  return root;
}

function stage(root: string, path: string, content: string): void {
  writeFileSync(join(root, path), content);
  execFileSync('git', ['add', path], { cwd: root });
}

async function preCommit(root: string) {
  const io = memoryIo({ cwd: root });
  const code = await main(['hook', 'git'], io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast hook git (pre-commit)', () => {
  it('refuses a staged new module without its test, and says R6 was not judged (no agent session)', async () => {
    const root = repo();
    stage(root, 'src/orders.ts', 'export const orders = 1;\n');
    const result = await preCommit(root);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/R3 TESTS.*src\/orders\.ts/);
    expect(result.err).toMatch(/R6 ORDER not judged/);
  });

  it('allows a module staged with its test, then judges an edit of it as an edit', async () => {
    const root = repo();
    stage(root, 'src/orders.ts', 'export const orders = 1;\n');
    stage(root, 'src/orders.test.ts', 'import "./orders";\n');
    const result = await preCommit(root);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/2 staged changes judged.*R6 ORDER not judged/);
    execFileSync('git', ['commit', '-q', '-m', 'orders'], { cwd: root });
    stage(root, 'src/orders.ts', 'export const orders = 2;\n');
    expect((await preCommit(root)).code).toBe(0);
    stage(root, 'src/orders.ts', 'export const orders = 2;\nconsole.log(orders);\n');
    expect((await preCommit(root)).err).toMatch(/R4 NOLOG/);
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(audit.map((entry) => entry.decision)).toEqual(['allow', 'allow', 'deny']);
  });
});
