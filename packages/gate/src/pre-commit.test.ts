import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from './test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { allowancePath, grantAllowance } from './allowance.js';
import { loadRulesEngine } from './rules-engine.js';
import { answerAgentHook } from './run-hook.js';
import { saveSessionState } from './session-state.js';
import type { SessionState } from './session-state.js';
import { claude } from './test-support/payloads.js';

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
  const code = await main(['hook', 'git', '--rulebook', defaultRulebookPath()], io);
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
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit.map((entry) => entry.decision)).toEqual(['allow', 'allow', 'deny']);
  });

  it("lists every failure of the staged changes, and never honours a person's allowance", async () => {
    const root = repo();
    grantAllowance(root, { rule: undefined, reason: 'not for commits', now: new Date() });
    stage(root, 'src/orders.test.ts', 'console.log(1);\n');
    stage(root, 'notes.md', 'hello\n');
    const result = await preCommit(root);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/2 violations/);
    expect(result.err).toMatch(/R4 NOLOG/);
    expect(result.err).toMatch(/R2 SCOPE.*notes\.md/);
    expect(result.err).not.toMatch(/HOLDFAST_GATE|bypass the gate/i);
    expect(existsSync(allowancePath(root))).toBe(true);
  });

  it('judges R6 from the agent session the gate saw last: tests after the last change, and not failed', async () => {
    const root = repo();
    stage(root, 'src/orders.test.ts', 'export {};\n');
    const session = (runs: SessionState['runs']) => saveSessionState(root, 'agent-1', { version: 1, created: [], runs });
    session([{ cmd: 'npm test' }, { cmd: 'git add -A' }]);
    expect((await preCommit(root)).out).toMatch(/R6 ORDER judged from the agent session agent-1: the tests ran after the last change/);
    session([{ cmd: 'git status' }]);
    const untested = await preCommit(root);
    expect(untested.code).toBe(1);
    expect(untested.err).toMatch(/R6 ORDER: the commit comes after the agent's last change with no test run in between; run npm test/);
    session([{ cmd: 'npm test', failed: 'exit code 1' }, { cmd: 'ls' }]);
    expect((await preCommit(root)).err).toMatch(/R6 ORDER: the last test run \(`npm test`\) did not pass \(exit code 1\)/);
  });

  it('judges R3 with what the agent gate saw: a file that existed before the agent edited it is not a new module', async () => {
    const root = repo();
    writeFileSync(join(root, 'src', 'legacy.ts'), 'export const legacy = 1;\n');
    stage(root, 'src/legacy.ts', 'export const legacy = 2;\n');
    expect((await preCommit(root)).err).toMatch(/R3 TESTS.*src\/legacy\.ts/);
    const options = { env: {}, now: () => new Date(), rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false };
    for (const input of [
      claude.edit(root, 'agent', 'src/legacy.ts', 'legacy = 1', 'legacy = 2'),
      claude.bash(root, 'agent', 'npm test'),
      claude.bash(root, 'agent', 'git add -A && git commit -m legacy'),
    ]) {
      expect((await answerAgentHook('claude-code', input, options)).stdout).toBe('');
    }
    const result = await preCommit(root);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/R6 ORDER judged from the agent session agent: the tests ran/);
  });
});
