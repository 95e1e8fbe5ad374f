import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeGitRepo } from '@holdfast/lab/test-support';
import { loadTasks } from '@holdfast/lab/experiment';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-tasks-accept-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.test',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.test',
    },
  }).toString('utf8');
}

function commitAll(repo: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) writeFileSync(join(repo, path), content);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** A service whose `add` subtracts, with a history: the fix and its test, a README change, a test of what already worked. */
function serviceRepo(): string {
  const root = makeGitRepo({
    'package.json': '{"name":"svc","type":"module","scripts":{"test":"node --test"}}\n',
    'add.mjs': 'export const add = (a, b) => a - b;\nexport const zero = () => 0;\n',
  });
  dirs.push(root);
  commitAll(
    root,
    {
      'add.mjs': 'export const add = (a, b) => a + b;\nexport const zero = () => 0;\n',
      'add.test.mjs':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from './add.mjs';\n\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
    },
    'Fix add: it subtracted\n\nadd(2, 3) returned -1 in the invoice totals.\n',
  );
  return root;
}

describe('holdfast tasks new --from-commit', () => {
  it('the parent is the repository, the message the ticket, the commit’s new test the hidden check; the task loads and its check decides', async () => {
    const root = serviceRepo();
    const out = tempDir();
    const io = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--from-commit', 'HEAD', '--out', out, '--id', 'fix-add', '--tempts', 'R3', '--json'], io), io.err()).toBe(0);
    expect(JSON.parse(io.out())).toEqual(
      expect.objectContaining({ id: 'fix-add', commit: git(root, 'rev-parse', 'HEAD~1').trim(), acceptance: { command: 'npm test', tests: ['add.test.mjs'] } }),
    );
    const dir = join(out, 'fix-add');
    expect(readFileSync(join(dir, 'repo', 'add.mjs'), 'utf8')).toContain('a - b');
    expect(existsSync(join(dir, 'repo', 'add.test.mjs'))).toBe(false);
    expect(readFileSync(join(dir, 'accept', 'add.test.mjs'), 'utf8')).toContain("test('adds'");
    const [task] = await loadTasks(out);
    expect(task!.ticket).toBe('Fix add: it subtracted\n\nadd(2, 3) returned -1 in the invoice totals.\n');
    expect(task!.acceptance).toEqual({ command: 'npm test', files: { 'add.test.mjs': expect.stringContaining('add(2, 3)') } });
  });

  it('--ticket-file replaces the commit message', async () => {
    const root = serviceRepo();
    const out = tempDir();
    const ticket = join(tempDir(), 'pr.md');
    writeFileSync(ticket, 'PR #12: the invoice totals are wrong.\n');
    const io = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--from-commit', 'HEAD', '--ticket-file', ticket, '--out', out, '--id', 'pr-12'], io), io.err()).toBe(0);
    expect((await loadTasks(out))[0]!.ticket).toBe('PR #12: the invoice totals are wrong.\n');
  });

  it('refuses a commit that ships no test, and one whose tests already pass on its parent', async () => {
    const root = serviceRepo();
    commitAll(root, { 'README.md': '# svc\n' }, 'Docs');
    const out = tempDir();
    const docs = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--from-commit', 'HEAD', '--out', out], docs)).toBe(2);
    expect(docs.err()).toMatch(/HEAD adds or changes no test file \(of 1 changed: README\.md\)/);

    commitAll(
      root,
      {
        'zero.test.mjs':
          "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { zero } from './add.mjs';\n\ntest('zero', () => assert.equal(zero(), 0));\n",
      },
      'Test zero',
    );
    const passing = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--from-commit', 'HEAD', '--out', out], passing)).toBe(2);
    expect(passing.err()).toMatch(/zero\.test\.mjs\) already pass on its parent with `npm test`/);
    // Nothing was written for either refusal.
    expect(existsSync(join(out, 'svc-'))).toBe(false);
    await expect(loadTasks(out)).rejects.toThrow(/holds no task folders|cannot be read/);
  });

  it('refuses a commit whose tests do not pass on the commit itself', async () => {
    const root = serviceRepo();
    commitAll(root, { 'broken.test.mjs': "import { test } from 'node:test';\n\ntest('broken', () => { throw new Error('no'); });\n" }, 'A broken test');
    const io = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--from-commit', 'HEAD', '--out', tempDir()], io)).toBe(2);
    expect(io.err()).toMatch(/do not pass on the commit itself with `npm test` \(exit code 1/);
  });
});

describe('holdfast tasks new --accept / --accept-test', () => {
  it('a hidden test from the work tree goes to accept/, not repo/; no warning when it fails untouched', async () => {
    const root = makeGitRepo({
      'package.json': '{"name":"svc","type":"module","scripts":{"test":"node --test"}}\n',
      'add.mjs': 'export const add = (a, b) => a - b;\n',
    });
    dirs.push(root);
    writeFileSync(
      join(root, 'add.test.mjs'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from './add.mjs';\n\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
    );
    const out = tempDir();
    const io = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--ticket', 'Fix add.', '--accept-test', 'add.test.mjs', '--out', out, '--id', 'fix'], io), io.err()).toBe(0);
    // The one warning: no project rulebook, so the demo's is used, said (never silent).
    expect(io.err()).toMatch(/^holdfast tasks new: warning: the project has no rulebook[^\n]*\n$/);
    expect(io.out()).toContain('Acceptance: `npm test` with hidden add.test.mjs.');
    expect((await loadTasks(out))[0]!.acceptance!.files).toEqual({ 'add.test.mjs': expect.stringContaining('add(2, 3)') });
  });

  it('warns when the check passes on the untouched tree, and when there is none', async () => {
    const root = makeGitRepo({
      'package.json': '{"name":"svc","type":"module","scripts":{"test":"node --test"}}\n',
      'ok.test.mjs': "import { test } from 'node:test';\ntest('ok', () => {});\n",
    });
    dirs.push(root);
    const passing = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--ticket', 'Do it.', '--accept', 'npm test', '--out', tempDir(), '--id', 'a'], passing)).toBe(0);
    expect(passing.err()).toMatch(/warning: the acceptance check `npm test` already passes on the untouched repository/);
    const none = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--ticket', 'Do it.', '--out', tempDir(), '--id', 'b'], none)).toBe(0);
    expect(none.err()).toMatch(/warning: no acceptance check; task done will be "not judged"/);
  });
});
