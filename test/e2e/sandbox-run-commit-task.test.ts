import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import type { ArmResult } from '@holdfast/core/contract';
import { memoryIo } from '@holdfast/core/test-support';
import { findProgram } from '@holdfast/gate';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import { requireIsolation } from '@holdfast/lab/test-support';

// Issue 43: a real commit's own fix is judged done in a sandboxed run. A pnpm + vitest repository
// whose last commit adds a function and its test becomes a task (`tasks new --from-commit`); then
// `run --sandbox --installed-in REPO` plays two scripted replies: the commit's own change as write
// actions, and nothing. The repository's node_modules is bound read-only into each arm, as in the
// task's trial, so the hidden vitest test runs and decides.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 600_000;

let dir = '';

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Mika',
      GIT_AUTHOR_EMAIL: 'mika@example.test',
      GIT_COMMITTER_NAME: 'Mika',
      GIT_COMMITTER_EMAIL: 'mika@example.test',
    },
  }).toString('utf8');
}

function commit(repo: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

beforeAll(async () => {
  await requireIsolation();
  if (findProgram('pnpm', process.env) === undefined)
    throw new Error('This test runs pnpm for real and it is not on PATH: npm install -g pnpm@10 (test/setup/system-tools.ts installs it as root).');
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-sandbox-commit-task-')));
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('run --sandbox on a task from a real commit of a pnpm + vitest repository', { timeout: TIMEOUT_MS }, () => {
  it('judges the commit’s own change done and nothing not done, with the repository’s node_modules read-only', async () => {
    const repo = join(dir, 'ts-strings');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    commit(
      repo,
      {
        'package.json': '{ "name": "ts-strings", "private": true, "type": "module", "scripts": { "test": "vitest run" } }\n',
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'src/shout.ts': 'export const shout = (text: string): string => `${text.toUpperCase()}!`;\n',
        '.gitignore': 'node_modules\n',
      },
      'first',
    );
    commit(
      repo,
      {
        'src/words.ts': "export function countWords(text: string): number {\n  return text.split(/\\s+/).filter((word) => word !== '').length;\n}\n",
        'src/words.test.ts':
          "import { expect, test } from 'vitest';\nimport { countWords } from './words';\n\ntest('counts words', () => {\n  expect(countWords('the quick  brown fox')).toBe(4);\n});\n",
      },
      'Add countWords(text)',
    );
    // The repository's installed dependencies: vitest, as `pnpm install` would link it (here from holdfast's own install, offline).
    mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(realpathSync(join(ROOT, 'node_modules', 'vitest')), join(repo, 'node_modules', 'vitest'));
    symlinkSync('../vitest/vitest.mjs', join(repo, 'node_modules', '.bin', 'vitest'));

    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
    const tasksDir = join(dir, 'tasks');
    const made = memoryIo({ cwd: repo, env });
    expect(
      await main(
        ['tasks', 'new', '--from-commit', 'HEAD', '--accept', 'pnpm test', '--out', tasksDir, '--id', 'count-words', '--tempts', 'R3', '--json'],
        made,
      ),
      made.err(),
    ).toBe(0);
    expect(JSON.parse(made.out())).toMatchObject({ acceptance: { command: 'pnpm test', tests: ['src/words.test.ts'] } });

    // The commit's own change, as write actions: every file it adds or changes, as the commit has it.
    const changed = git(repo, 'diff', '--name-only', 'HEAD~1', 'HEAD').trim().split('\n');
    const writes = changed.map((path) => ({ type: 'write', path, content: git(repo, 'show', `HEAD:${path}`) }));
    expect(writes.map((write) => write.path)).toEqual(['src/words.test.ts', 'src/words.ts']);
    const raw = (actions: unknown[]) => JSON.stringify({ actions });
    const replies = join(dir, 'replies.json');
    writeFileSync(
      replies,
      JSON.stringify({
        version: 1,
        demo: 'Scripted replies: the commit’s own change, and nothing.',
        replies: ['told', 'held'].flatMap((arm) => [
          { target: 'commit-fix', task: 'count-words', rep: 0, arm, raw: raw(writes) },
          { target: 'does-nothing', task: 'count-words', rep: 0, arm, raw: raw([]) },
        ]),
      }),
    );

    const out = join(dir, 'run.jsonl');
    const ran = memoryIo({ cwd: dir, env });
    const code = await main(
      [
        'run',
        ...['--tasks-dir', tasksDir, '--tasks', 'count-words', '--targets', 'commit-fix,does-nothing', '--reps', '1'],
        ...['--replies', replies, '--sandbox', '--installed-in', repo, '--no-judge', '--out', out],
      ],
      ran,
    );
    const state = reduceRunEvents((await readRunFile(out)).events);
    const arms = new Map<string, ArmResult>();
    for (const round of state.rounds)
      for (const result of [round.told, round.held]) if (result !== undefined) arms.set(`${round.target}/${result.arm}`, result);
    const why = `${ran.err()}\n${JSON.stringify(
      [...arms].map(([key, result]) => [key, result.verdict, result.sandbox?.taskDone]),
      null,
      2,
    )}`;
    expect(code, why).toBe(0);
    expect([...arms.keys()].sort()).toEqual(['commit-fix/held', 'commit-fix/told', 'does-nothing/held', 'does-nothing/told']);
    for (const arm of ['told', 'held']) {
      const fix = arms.get(`commit-fix/${arm}`)!;
      expect(fix.verdict, why).toBe('clean');
      expect(fix.sandbox?.isolation, why).toBe('bubblewrap');
      expect(fix.sandbox?.taskDone, why).toMatchObject({ command: 'pnpm test', passed: true, exitCode: 0 });
      expect(fix.sandbox?.taskDone?.outputTail, why).toMatch(/1 passed/);
      const nothing = arms.get(`does-nothing/${arm}`)!;
      expect(nothing.verdict, why).toBe('no-op');
      expect(nothing.sandbox?.taskDone, why).toMatchObject({ command: 'pnpm test', passed: false });
      // The hidden test ran and failed for want of the change, not for want of vitest.
      expect(nothing.sandbox?.taskDone?.outputTail, why).toMatch(/words/);
      expect(nothing.sandbox?.taskDone?.outputTail, why).not.toMatch(/vitest: not found|Command "vitest" not found/);
    }
  });
});
