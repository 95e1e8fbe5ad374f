import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeGitRepo } from '@holdfast/lab/test-support';
import { loadTasks } from '@holdfast/lab/experiment';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', GIT_CONFIG_GLOBAL: '/dev/null' },
  })
    .toString('utf8')
    .trim();
}

function commitAll(repo: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** A loopback port with nothing behind it, so init's Ollama probe fails at once. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A service whose `add` subtracted: the fix with its test, then a merged branch, then docs. */
function serviceRepo(): { root: string; fix: string } {
  const root = makeGitRepo({
    'package.json': '{"name":"svc","type":"module","scripts":{"test":"node --test"}}\n',
    'add.mjs': 'export const add = (a, b) => a - b;\n',
  });
  dirs.push(root);
  commitAll(
    root,
    {
      'add.mjs': 'export const add = (a, b) => a + b;\n',
      'add.test.mjs':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from './add.mjs';\n\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
    },
    'Fix add: it subtracted',
  );
  const fix = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '-q', '-b', 'feature');
  commitAll(root, { 'mul.mjs': 'export const mul = (a, b) => a * b;\n' }, 'mul');
  commitAll(root, { 'mul.test.mjs': "import { test } from 'node:test';\nimport { mul } from './mul.mjs';\n\ntest('mul', () => mul(2, 3));\n" }, 'test mul');
  git(root, 'checkout', '-q', '-');
  git(root, 'merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature');
  commitAll(root, { 'README.md': '# svc\n' }, 'Docs');
  return { root, fix };
}

describe('holdfast init offers tasks from the repository’s history', () => {
  it('in a repository with installed packages the offered command links them: --node-modules node_modules', async () => {
    const { root, fix } = serviceRepo();
    mkdirSync(join(root, 'node_modules', 'left-pad'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'left-pad', 'index.js'), 'module.exports = (text) => text;\n');
    const init = memoryIo({ cwd: root, env: { PATH: '' } });
    expect(await main(['init', '--ollama', await closedPort()], init), init.err()).toBe(0);
    expect(init.out()).toContain(
      `holdfast tasks new --from-commit ${git(root, 'rev-parse', '--short', fix)} --out holdfast/tasks --node-modules node_modules\n`,
    );
  });

  it('after the history check it prints the fix with its test and the command; the command, typed as printed, makes the task', async () => {
    const { root, fix } = serviceRepo();
    const short = git(root, 'rev-parse', '--short', fix);
    const init = memoryIo({ cwd: root, env: { PATH: '' } });
    expect(await main(['init', '--ollama', await closedPort()], init), init.err()).toBe(0);
    const out = init.out();
    const command = `holdfast tasks new --from-commit ${short} --out holdfast/tasks`;
    expect(out).toContain(
      [
        'Tasks from your history: a commit of the last 5 changes code and ships tests.',
        '  Each becomes a task whose hidden check is its tests (refused unless they fail on its parent and pass on it):',
        `  ${short} Fix add: it subtracted`,
        '      tests: add.test.mjs',
        `      ${command}`,
      ].join('\n'),
    );
    expect(out.indexOf('The rulebook against the last')).toBeLessThan(out.indexOf('Tasks from your history'));
    expect(out.indexOf('Tasks from your history')).toBeLessThan(out.indexOf('holdfast run --tasks-dir'));

    const made = memoryIo({ cwd: root });
    expect(await main(command.replace(/^holdfast /, '').split(' '), made), made.err()).toBe(0);
    const tasks = await loadTasks(join(root, 'holdfast', 'tasks'));
    const fromCommit = tasks.find((task) => task.acceptance !== undefined);
    expect(tasks).toHaveLength(2);
    expect(fromCommit?.ticket).toBe('Fix add: it subtracted\n');
    expect(fromCommit?.files['add.mjs']).toContain('a - b');
    expect(Object.keys(fromCommit?.acceptance?.files ?? {})).toEqual(['add.test.mjs']);
  });

  it('--json carries the screened commits; run from elsewhere, the printed command starts with cd', async () => {
    const { root, fix } = serviceRepo();
    const json = memoryIo({ cwd: root, env: { PATH: '' } });
    expect(await main(['init', '--dir', 'hf', '--ollama', await closedPort(), '--json'], json), json.err()).toBe(0);
    const body = JSON.parse(json.out()) as {
      taskCommits: { scanned: number; offered: { commit: string; tests: string[]; code: string[]; command: string }[] };
    };
    expect(body.taskCommits.scanned).toBe(5);
    expect(body.taskCommits.offered).toEqual([
      expect.objectContaining({
        commit: fix,
        tests: ['add.test.mjs'],
        code: ['add.mjs'],
        command: expect.stringMatching(/ --out hf\/tasks --rulebook hf\/rulebook\.yaml$/),
      }),
    ]);

    const elsewhere = memoryIo({ cwd: dirname(root), env: { PATH: '' } });
    expect(await main(['init', '--repo', root, '--dir', 'hf2', '--ollama', await closedPort()], elsewhere), elsewhere.err()).toBe(0);
    expect(elsewhere.out()).toMatch(new RegExp(`\\n {6}cd ${root.split('/').at(-1)!} && holdfast tasks new --from-commit [0-9a-f]+ --out hf2/tasks`));
  });
});
