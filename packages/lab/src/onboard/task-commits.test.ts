import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCommitCommand } from './init-repo.js';
import { isCodePath } from './file-kinds.js';
import { findTaskCommits, formatTaskCommits } from './task-commits.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', GIT_CONFIG_GLOBAL: '/dev/null' },
  })
    .toString('utf8')
    .trim();
}

function commit(root: string, files: Record<string, string | null>, message: string): string {
  for (const [path, content] of Object.entries(files)) {
    if (content === null) rmSync(join(root, path));
    else {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  }
  git(root, 'add', '--all');
  git(root, 'commit', '-q', '--no-verify', '-m', message);
  return git(root, 'rev-parse', 'HEAD');
}

function emptyRepo(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-task-commits-'));
  roots.push(root);
  git(root, 'init', '-q', '-b', 'main');
  return root;
}

/**
 * A history, oldest first: a root commit with code and a test; a fix that ships its test; a merge of a
 * branch whose commits are code alone then a test alone (the merge, against its first parent,
 * changes both); a docs-only commit; newest.
 */
function history(): { root: string; fix: string } {
  const root = emptyRepo();
  commit(root, { 'src/add.ts': 'export const add = (a: number, b: number) => a - b;\n', 'src/add.test.ts': "import './add.js';\n" }, 'start');
  const fix = commit(
    root,
    { 'src/add.ts': 'export const add = (a: number, b: number) => a + b;\n', 'src/add.test.ts': "import { add } from './add.js';\nadd(2, 3);\n" },
    'Fix add: it subtracted',
  );
  git(root, 'checkout', '-q', '-b', 'feature');
  commit(root, { 'src/mul.ts': 'export const mul = (a: number, b: number) => a * b;\n' }, 'mul');
  commit(root, { 'src/mul.test.ts': "import { mul } from './mul.js';\nmul(2, 3);\n" }, 'test mul');
  git(root, 'checkout', '-q', 'main');
  git(root, 'merge', '-q', '--no-ff', '-m', 'Merge branch feature', 'feature');
  commit(root, { 'README.md': '# demo\n', 'docs/usage.md': 'Call add.\n' }, 'docs');
  return { root, fix };
}

describe('findTaskCommits: git alone says which commits would make a task', () => {
  it('offers the commit that changes code and ships its test; not the merge, the docs, the code alone, the test alone or the root', async () => {
    const { root, fix } = history();
    const scan = await findTaskCommits(root);
    // docs, test mul, mul, Fix add, start: the merge is not a commit of its own to look at.
    expect(scan.scanned).toBe(5);
    expect(scan.offered).toEqual([
      { commit: fix, short: expect.any(String), subject: 'Fix add: it subtracted', tests: ['src/add.test.ts'], code: ['src/add.ts'] },
    ]);
    expect(git(root, 'rev-parse', scan.offered[0]!.short)).toBe(fix);
  });

  it('keeps the newest `offer`, looks back only `scan` commits, and ignores holdfast’s own folder', async () => {
    const root = emptyRepo();
    commit(root, { 'lib/a.py': 'A = 1\n' }, 'start');
    const first = commit(root, { 'lib/a.py': 'A = 2\n', 'tests/test_a.py': 'from lib.a import A\n' }, 'a is 2');
    const second = commit(root, { 'lib/b.go': 'package lib\n', 'lib/b_test.go': 'package lib\n' }, 'b in go');
    commit(root, { 'holdfast/tasks/x/repo/src/c.ts': 'x\n', 'holdfast/tasks/x/repo/src/c.test.ts': 'x\n' }, 'an earlier init, committed');
    commit(root, { 'lib/a.py': 'A = 3\n', 'tests/test_a.py': null }, 'a is 3, its test gone');
    commit(root, { 'tests/test_a.py': 'from lib.a import A\nassert A\n', 'CHANGELOG.md': '- tests\n', 'package.json': '{}\n' }, 'tests and docs only');

    expect((await findTaskCommits(root, { ignoreFolders: ['holdfast'] })).offered.map((offered) => offered.commit)).toEqual([second, first]);
    expect((await findTaskCommits(root, { ignoreFolders: ['holdfast'], offer: 1 })).offered.map((offered) => offered.commit)).toEqual([second]);
    expect((await findTaskCommits(root, { ignoreFolders: ['holdfast'], scan: 3 })).offered).toEqual([]);
    // Without the ignored folder, the committed task copy looks like code beside a test.
    expect((await findTaskCommits(root)).offered[0]?.subject).toBe('an earlier init, committed');
  });

  it('a shallow clone’s boundary commit has no parent to make a repository of, so it is not offered', async () => {
    const { root, fix } = history();
    git(root, 'checkout', '-q', '--detach', fix);
    const shallow = mkdtempSync(join(tmpdir(), 'holdfast-task-commits-shallow-'));
    roots.push(shallow);
    git(shallow, 'clone', '-q', '--depth', '1', `file://${root}`, 'clone');
    expect(await findTaskCommits(join(shallow, 'clone'))).toEqual({ scanned: 1, offered: [] });
    expect((await findTaskCommits(root)).offered.map((offered) => offered.commit)).toEqual([fix]);
  });

  it('a source file is code unless it is a test; docs, config and lock files are not', () => {
    expect(['src/a.ts', 'lib/x.mjs', 'app/models.py', 'pkg/b.go', 'src/main.rs', 'web/App.vue'].filter(isCodePath)).toHaveLength(6);
    expect(
      ['src/a.test.ts', 'tests/test_x.py', 'pkg/b_test.go', '__tests__/a.js', 'README.md', 'package.json', 'pnpm-lock.yaml', 'docs/a.mdx'].filter(isCodePath),
    ).toEqual([]);
  });

  it('prints hash, subject, tests and the command; says what to do when nothing qualifies', async () => {
    const { root } = history();
    const scan = await findTaskCommits(root);
    const offered = scan.offered.map((found) => ({ ...found, command: fromCommitCommand(found.short, 'holdfast', 'npm test') }));
    const lines = formatTaskCommits({ scanned: scan.scanned, offered }, 'cd repo && ');
    expect(lines[0]).toBe('Tasks from your history: a commit of the last 5 changes code and ships tests.');
    expect(lines.slice(2)).toEqual([
      `  ${offered[0]!.short} Fix add: it subtracted`,
      '      tests: src/add.test.ts',
      `      cd repo && holdfast tasks new --from-commit ${offered[0]!.short} --out holdfast/tasks`,
    ]);
    expect(formatTaskCommits({ scanned: 7, offered: [] })[0]).toMatch(/^Tasks from your history: none of the last 7 commits changes code and ships a test/);
  });

  it('the command names the repository’s own test command and a non-default folder’s rulebook', () => {
    expect(fromCommitCommand('abc1234', 'holdfast', undefined)).toBe('holdfast tasks new --from-commit abc1234 --out holdfast/tasks');
    // The flags init was given travel with the printed line, so it reads the repository as init did.
    expect(fromCommitCommand('abc1234', 'holdfast', undefined, false, { maxBytes: 30_000_000, exclude: ['vendor/**', "it's/**"] })).toBe(
      `holdfast tasks new --from-commit abc1234 --out holdfast/tasks --max-bytes 30000000 --exclude 'vendor/**' --exclude 'it'\\''s/**'`,
    );
    expect(fromCommitCommand('abc1234', 'hf', 'pytest')).toBe(
      'holdfast tasks new --from-commit abc1234 --out hf/tasks --rulebook hf/rulebook.yaml --accept pytest',
    );
    expect(fromCommitCommand('abc1234', 'holdfast', 'go test ./...')).toBe(
      "holdfast tasks new --from-commit abc1234 --out holdfast/tasks --accept 'go test ./...'",
    );
    // Installed packages at the root: the trial links them in, since it has no network to install them.
    expect(fromCommitCommand('abc1234', 'holdfast', 'npm test', true)).toBe(
      'holdfast tasks new --from-commit abc1234 --out holdfast/tasks --node-modules node_modules',
    );
  });
});
