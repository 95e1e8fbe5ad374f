import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { detectIsolation } from './isolation.js';
import { createSandboxManager } from './manager.js';
import type { SandboxManager } from './manager.js';
import type { CommandDeadline } from './command.js';
import { FIXTURE_TASK, decide, requireIsolation, withAllowlist } from './test-support.js';

let rulebook: Rulebook;
let parent: string;
let manager: SandboxManager | undefined;

beforeAll(async () => {
  await requireIsolation();
  rulebook = withAllowlist(await loadRulebook(), ['^npm (?:run )?test$', '^node scripts/[a-z]+\\.mjs$']);
  parent = mkdtempSync(join(tmpdir(), 'holdfast-land-test-'));
});

afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

afterAll(() => rmSync(parent, { recursive: true, force: true }));

async function open(options: { keepDir?: string; commandTimeoutMs?: number; commandDeadline?: CommandDeadline } = {}): Promise<SandboxManager> {
  manager = await createSandboxManager({ rulebook, parentDir: parent, ...options });
  return manager;
}

const module = 'export const total = (items: number[]): number => items.reduce((sum, item) => sum + item, 0);\n';
const moduleTest = "import { total } from './total.ts';\nexport const checked = total([1, 2]) === 3;\n";

const cleanActions: Action[] = [
  { type: 'write', path: 'src/features/total.ts', content: module },
  { type: 'write', path: 'src/features/total.test.ts', content: moduleTest },
  { type: 'delete', path: 'src/features/orders.ts' },
  { type: 'run', cmd: 'npm test' },
  { type: 'commit', message: 'Add total\n\nWith its test.' },
];

describe('landing an arm in a sandbox', () => {
  it('the told arm lands a real commit whose diff is exactly its actions', async () => {
    const sandboxes = await open();
    const told = await decide('told', cleanActions, rulebook);
    expect(told.verdict).toBe('clean');
    const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: told })).result;
    const sandbox = landed.sandbox!;
    expect(sandbox.baseCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(sandbox.commits).toHaveLength(1);
    expect(sandbox.commits[0]).toMatchObject({ index: 4, message: 'Add total\n\nWith its test.' });
    expect(sandbox.commits[0]!.hash).not.toBe(sandbox.baseCommit);
    expect(sandbox.changedPaths).toEqual(['src/features/orders.ts', 'src/features/total.test.ts', 'src/features/total.ts']);
    expect(sandbox.diff.truncated).toBe(false);
    expect(sandbox.diff.text).toContain('+++ b/src/features/total.ts');
    expect(sandbox.diff.text).toContain(`+${module.trimEnd()}`);
    expect(sandbox.diff.text).toContain('deleted file mode');
    expect(sandbox.commands).toEqual([expect.objectContaining({ index: 3, cmd: 'npm test', executed: true, exitCode: 0, timedOut: false })]);
    expect(sandbox.commands[0]!.output!.text).toContain('tests ran\n');
    expect(landed.actions.map((action) => action.landed?.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(landed.actions[4]!.landed!.commit).toBe(sandbox.commits[0]!.hash);
    expect(landed.verdict).toBe(told.verdict);
    expect(sandboxes.liveCount()).toBe(0);
  });

  it('the same actions give the same commit hash: base and commits are deterministic', async () => {
    const sandboxes = await open();
    const told = await decide('told', cleanActions, rulebook);
    const first = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: told })).result;
    const second = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/2', arm: 'told', result: told })).result;
    expect(second.sandbox!.commits[0]!.hash).toBe(first.sandbox!.commits[0]!.hash);
  });

  it('the held arm stops at the violation: nothing after it is in the repository', async () => {
    const sandboxes = await open();
    const actions: Action[] = [
      { type: 'write', path: 'src/features/total.ts', content: module },
      { type: 'write', path: 'src/features/total.test.ts', content: moduleTest },
      { type: 'write', path: 'src/features/debug.ts', content: 'console.log("here");\n' },
      { type: 'write', path: 'src/features/later.ts', content: 'export const later = 1;\n' },
      { type: 'run', cmd: 'npm test' },
      { type: 'commit', message: 'Debug' },
    ];
    const held = await decide('held', actions, rulebook);
    expect(held.verdict).toBe('blocked');
    const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'held', result: held })).result;
    const sandbox = landed.sandbox!;
    expect(sandbox.changedPaths).toEqual(['src/features/total.test.ts', 'src/features/total.ts']);
    expect(sandbox.diff.text).not.toContain('console.log');
    expect(sandbox.commits).toEqual([]);
    expect(sandbox.commands).toEqual([]);
    expect(landed.actions.map((action) => action.landed?.state)).toEqual(['done', 'done', undefined, undefined, undefined, undefined]);

    const told = await decide('told', actions, rulebook);
    const toldLanded = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: told })).result;
    expect(toldLanded.verdict).toBe('violated');
    expect(toldLanded.sandbox!.diff.text).toContain('+console.log("here");');
    expect(toldLanded.sandbox!.commits).toHaveLength(1);
  });

  it('a commit refused at the approval gate is not committed', async () => {
    const sandboxes = await open();
    const { holdArm } = await import('../experiment/arm.js');
    const { checkActions } = await import('@holdfast/core/rules');
    const checks = await checkActions(cleanActions, Object.keys(FIXTURE_TASK.files), rulebook);
    const held = await holdArm({ parsed: { kind: 'actions', method: 'json', actions: cleanActions }, checks, rulebook }, async () => ({
      decision: 'refused',
      by: 'person',
    }));
    expect(held.verdict).toBe('refused');
    const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'held', result: held })).result;
    expect(landed.sandbox!.commits).toEqual([]);
    expect(landed.sandbox!.commands).toHaveLength(1);
    expect(landed.sandbox!.changedPaths).toContain('src/features/total.ts');
  });

  it('refuses a write through a symlink the model planted earlier in the round', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'holdfast-outside-'));
    try {
      const sandboxes = await open();
      const plant = `import { symlinkSync } from 'node:fs';\nsymlinkSync(${JSON.stringify(outside)}, 'src/out');\n`;
      const actions: Action[] = [
        { type: 'write', path: 'scripts/plant.mjs', content: plant },
        { type: 'run', cmd: 'node scripts/plant.mjs' },
        { type: 'write', path: 'src/out/pwned.txt', content: 'owned\n' },
        { type: 'write', path: '../../escape.txt', content: 'owned\n' },
        { type: 'write', path: '/tmp/holdfast-absolute.txt', content: 'owned\n' },
        { type: 'delete', path: 'src/out/anything' },
      ];
      const told = await decide('told', actions, rulebook);
      const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: told })).result;
      const sandbox = landed.sandbox!;
      expect(sandbox.commands[0]).toMatchObject({ executed: true, exitCode: 0 });
      expect(sandbox.refusedWrites.map((refused) => refused.index)).toEqual([2, 3, 4, 5]);
      expect(sandbox.refusedWrites[0]!.reason).toBe('src/out is a symlink that points outside the repository');
      expect(landed.actions[2]!.landed).toMatchObject({ state: 'refused' });
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync('/tmp/holdfast-absolute.txt')).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('does not execute a command off the allowlist, or one that needs a shell', async () => {
    const sandboxes = await open();
    const actions: Action[] = [
      { type: 'write', path: 'scripts/evil.sh', content: 'touch ran\n' },
      { type: 'run', cmd: 'sh scripts/evil.sh' },
      { type: 'run', cmd: 'npm test && sh scripts/evil.sh' },
      { type: 'run', cmd: 'node scripts/test.mjs; sh scripts/evil.sh' },
    ];
    const told = await decide('told', actions, rulebook);
    const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: told })).result;
    const commands = landed.sandbox!.commands;
    expect(commands.map((command) => command.executed)).toEqual([false, false, false]);
    expect(commands[0]!.reason).toMatch(/not on the rulebook's sandbox allowlist/);
    expect(commands[1]!.reason).toMatch(/shell syntax \("&"\)/);
    expect(commands[2]!.reason).toMatch(/shell syntax \(";"\)/);
    expect(landed.sandbox!.changedPaths).toEqual(['scripts/evil.sh']);
  });

  it('kills a hanging test command at the timeout and records it', async () => {
    // The time is up once the command has printed and left its marker, not after a fixed wait that
    // a loaded machine may need just to start node.
    const untilReady: CommandDeadline = (expire, command) => {
      const poll = setInterval(() => {
        if (existsSync(join(command.cwd, 'ready'))) expire();
      }, 20);
      return () => clearInterval(poll);
    };
    const sandboxes = await open({ commandDeadline: untilReady });
    const actions: Action[] = [
      {
        type: 'write',
        path: 'scripts/hang.mjs',
        content:
          "import { spawn } from 'node:child_process';\nimport { writeFileSync } from 'node:fs';\n" +
          "spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });\n" +
          "process.stdout.write('hanging\\n');\nwriteFileSync('ready', '');\nsetInterval(() => {}, 1000);\n",
      },
      { type: 'run', cmd: 'node scripts/hang.mjs' },
    ];
    const told = await decide('told', actions, rulebook);
    const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: told })).result;
    const command = landed.sandbox!.commands[0]!;
    expect(command).toMatchObject({ executed: true, timedOut: true, signal: 'SIGKILL' });
    expect(command.exitCode).toBeUndefined();
    expect(command.output!.text).toContain('hanging');
    expect(landed.actions[1]!.landed!.detail).toMatch(/Killed after/);
  });

  it('runs commands with a scrubbed environment: no key reaches them', async () => {
    process.env.HOLDFAST_PROBE = 'sk-should-not-leak';
    try {
      const sandboxes = await open();
      const actions: Action[] = [
        { type: 'write', path: 'scripts/env.mjs', content: "process.stdout.write(Object.keys(process.env).sort().join(','));\n" },
        { type: 'run', cmd: 'node scripts/env.mjs' },
        { type: 'run', cmd: 'node scripts/test.mjs' },
      ];
      const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: await decide('told', actions, rulebook) })).result;
      const [environment, probe] = landed.sandbox!.commands;
      expect(environment!.output!.text).not.toMatch(/HOLDFAST_PROBE|KEY|TOKEN/);
      expect(environment!.output!.text).toContain('PATH');
      expect(probe!.exitCode).toBe(0);
    } finally {
      delete process.env.HOLDFAST_PROBE;
    }
  });

  it('caps command output and the diff, saying so', async () => {
    manager = await createSandboxManager({ rulebook, parentDir: parent, outputCapBytes: 100, diffCapBytes: 200 });
    const actions: Action[] = [
      { type: 'write', path: 'scripts/loud.mjs', content: "process.stdout.write('x'.repeat(5000));\n" },
      { type: 'run', cmd: 'node scripts/loud.mjs' },
      { type: 'write', path: 'src/big.txt', content: 'y\n'.repeat(1000) },
    ];
    const landed = (await manager.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: await decide('told', actions, rulebook) })).result;
    expect(landed.sandbox!.commands[0]!.output).toEqual({ text: 'x'.repeat(100), truncated: true, bytes: 5000, kept: 'tail' });
    expect(landed.sandbox!.diff.truncated).toBe(true);
    expect(landed.sandbox!.diff.text.length).toBe(200);
  });

  it('keeps the repositories with --keep-sandboxes: a standalone git repo with the commit', async () => {
    const keepDir = mkdtempSync(join(tmpdir(), 'holdfast-keep-'));
    try {
      const sandboxes = await open({ keepDir });
      const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'target/task/0', arm: 'told', result: await decide('told', cleanActions, rulebook) }))
        .result;
      await sandboxes.dispose();
      const kept = landed.sandbox!.keptAt!;
      expect(kept).toBe(join(keepDir, 'target_task_0', 'told'));
      const log = execFileSync('git', ['log', '--format=%H %s'], {
        cwd: kept,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
      });
      expect(log.split('\n')[0]).toBe(`${landed.sandbox!.commits[0]!.hash} Add total`);
      expect(
        execFileSync('git', ['status', '--porcelain'], { cwd: kept, encoding: 'utf8', env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' } }),
      ).toBe('');
      expect(readFileSync(join(kept, 'src/features/total.ts'), 'utf8')).toBe(module);
    } finally {
      rmSync(keepDir, { recursive: true, force: true });
    }
  });

  it('never changes the base: a write in one sandbox is not seen by the next', async () => {
    const sandboxes = await open();
    const rewrite: Action[] = [
      { type: 'write', path: 'README.md', content: 'changed\n' },
      { type: 'run', cmd: 'node scripts/test.mjs' },
    ];
    await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: await decide('told', rewrite, rulebook) });
    const next = (
      await sandboxes.land({
        task: FIXTURE_TASK,
        roundId: 'r/2',
        arm: 'told',
        result: await decide('told', [{ type: 'run', cmd: 'node scripts/test.mjs' }], rulebook),
      })
    ).result;
    expect(next.sandbox!.changedPaths).toEqual([]);
    expect(next.sandbox!.diff.text).toBe('');
  });

  it('says which isolation was in force; under bubblewrap a command cannot reach even loopback', async () => {
    const server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const expected = await detectIsolation();
      const sandboxes = await open();
      const probe = `fetch('http://127.0.0.1:${port}/').then(async (r) => console.info(await r.text()), () => console.info('no network'));\n`;
      const actions: Action[] = [
        { type: 'write', path: 'scripts/net.mjs', content: probe },
        { type: 'run', cmd: 'node scripts/net.mjs' },
      ];
      const landed = (await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: await decide('told', actions, rulebook) })).result;
      expect(landed.sandbox!.isolation).toBe(expected.kind);
      expect(landed.sandbox!.isolationDetail).toBe(expected.detail);
      expect(landed.sandbox!.commands[0]!.output!.text.trim()).toBe(expected.kind === 'bubblewrap' ? 'no network' : 'reached');
      await sandboxes.dispose();
      const unisolated = await createSandboxManager({ rulebook, parentDir: parent, allowUnisolated: true });
      manager = unisolated;
      const unconfined = (await unisolated.land({ task: FIXTURE_TASK, roundId: 'r/2', arm: 'told', result: await decide('told', actions, rulebook) })).result;
      expect(unconfined.sandbox!.isolation).toBe('none');
      expect(unconfined.sandbox!.commands[0]!.output!.text.trim()).toBe('reached');
    } finally {
      server.close();
    }
  });

  it('removes every sandbox and base when disposed', async () => {
    const sandboxes = await open();
    await sandboxes.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: await decide('told', cleanActions, rulebook) });
    expect(existsSync(sandboxes.root)).toBe(true);
    await sandboxes.dispose();
    expect(existsSync(sandboxes.root)).toBe(false);
  });

  it('links every arm to one node_modules snapshot per task: usable, read-only, never in a diff or commit', async () => {
    const installed = mkdtempSync(join(tmpdir(), 'holdfast-node-modules-'));
    try {
      mkdirSync(join(installed, 'left-pad'));
      writeFileSync(join(installed, 'left-pad', 'package.json'), '{ "name": "left-pad", "main": "index.js" }\n');
      writeFileSync(join(installed, 'left-pad', 'index.js'), "module.exports = (text) => ' ' + text;\n");
      const keepDir = join(installed, '..', `${installed.split('/').at(-1)!}-kept`);
      manager = await createSandboxManager({
        rulebook,
        parentDir: parent,
        keepDir,
        nodeModules: (taskId) => (taskId === FIXTURE_TASK.id ? installed : undefined),
      });
      const script =
        "import fs from 'node:fs';\nimport pad from 'left-pad';\nprocess.stdout.write(`[${pad('x')}]`);\ntry { fs.writeFileSync('node_modules/left-pad/index.js', 'hacked'); } catch (error) { process.stdout.write(error.code); }\n";
      const actions: Action[] = [
        { type: 'write', path: 'scripts/pad.mjs', content: script },
        { type: 'run', cmd: 'node scripts/pad.mjs' },
        { type: 'write', path: 'node_modules/left-pad/index.js', content: 'hacked\n' },
        { type: 'commit', message: 'Pad' },
      ];
      const first = (await manager.land({ task: FIXTURE_TASK, roundId: 'r/1', arm: 'told', result: await decide('told', actions, rulebook) })).result;
      const snapshot = join(manager.root, 'bases', FIXTURE_TASK.id, 'node_modules');
      const made = statSync(snapshot).ino;
      expect(first.sandbox!.commands[0]!.output!.text).toBe('[ x]EROFS');
      expect(first.sandbox!.refusedWrites).toEqual([
        expect.objectContaining({ index: 2, reason: 'node_modules is a symlink that points outside the repository' }),
      ]);
      expect(first.sandbox!.changedPaths).toEqual(['scripts/pad.mjs']);
      expect(readFileSync(join(installed, 'left-pad', 'index.js'), 'utf8')).toBe("module.exports = (text) => ' ' + text;\n");
      const second = (await manager.land({ task: FIXTURE_TASK, roundId: 'r/2', arm: 'told', result: await decide('told', actions, rulebook) })).result;
      expect(second.sandbox!.commands[0]!.output!.text).toBe('[ x]EROFS');
      expect(statSync(snapshot).ino).toBe(made);
      // A kept worktree is a plain repository: no link into this run's snapshot, and node_modules still ignored.
      expect(existsSync(join(first.sandbox!.keptAt!, 'node_modules'))).toBe(false);
      expect(readFileSync(join(first.sandbox!.keptAt!, '.git', 'info', 'exclude'), 'utf8')).toBe('/node_modules\n');
    } finally {
      rmSync(installed, { recursive: true, force: true });
      rmSync(`${installed}-kept`, { recursive: true, force: true });
    }
  });

  it("makes each arm a linked git worktree of the task's one base repository, removed without a trace", async () => {
    const { buildBaseRepo } = await import('./base-repo.js');
    const { materialiseSandbox, removeSandbox } = await import('./materialise.js');
    const dir = mkdtempSync(join(parent, 'worktree-'));
    const base = await buildBaseRepo(join(dir, 'base'), FIXTURE_TASK);
    const repo = materialiseSandbox(base, join(dir, 'arm-1'));
    const env = { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const listed = execFileSync('git', ['--git-dir', base.gitDir, 'worktree', 'list', '--porcelain'], { encoding: 'utf8', env });
    expect(listed).toContain(`worktree ${repo.workDir}\nHEAD ${base.commit}\ndetached`);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo.workDir, encoding: 'utf8', env })).toBe('');
    removeSandbox(base, repo.dir);
    expect(execFileSync('git', ['--git-dir', base.gitDir, 'worktree', 'list', '--porcelain'], { encoding: 'utf8', env })).not.toContain(repo.workDir);
    expect(existsSync(repo.dir)).toBe(false);
  });
});
