import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installVitestFrom } from './installed-vitest.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import type { ArmResult } from '@holdfast/core/contract';
import { memoryIo } from '@holdfast/core/test-support';
import { findProgram } from '@holdfast/gate';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import { requireIsolation } from '@holdfast/lab/test-support';

// Issue 43: a real commit's own fix is judged done in a sandboxed run. A repository whose last commit
// adds a function and its test becomes a task (`tasks new --from-commit`); then `run --sandbox
// --installed-in REPO` plays two scripted replies: the commit's own change as write actions, and
// nothing. The repository's installed node_modules or .venv is bound read-only into each arm, as in
// the task's trial, so the hidden test runs with the repository's own runner and decides.

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

/** A repository whose first commit holds `base` and whose second (the task) adds a function and its test. */
function repository(name: string, base: Record<string, string>, change: Record<string, string>): string {
  const repo = join(dir, name);
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  commit(repo, base, 'first');
  commit(repo, change, 'Add the function and its test');
  return repo;
}

/**
 * `tasks new --from-commit` on the repository, then `run --sandbox --installed-in REPO` with two scripted
 * targets: `commit-fix` replies with the commit's own change as write actions, `does-nothing` with no action.
 */
async function playCommitTask(repo: string, accept: string, hiddenTest: string) {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
  const name = basename(repo);
  const tasksDir = join(dir, `${name}-tasks`);
  const made = memoryIo({ cwd: repo, env });
  expect(
    await main(['tasks', 'new', '--from-commit', 'HEAD', '--accept', accept, '--out', tasksDir, '--id', name, '--tempts', 'R3', '--json'], made),
    made.err(),
  ).toBe(0);
  expect(JSON.parse(made.out())).toMatchObject({ acceptance: { command: accept, tests: [hiddenTest] } });

  // The commit's own change, as write actions: every file it adds or changes, as the commit has it.
  const changed = git(repo, 'diff', '--name-only', 'HEAD~1', 'HEAD').trim().split('\n');
  const writes = changed.map((path) => ({ type: 'write', path, content: git(repo, 'show', `HEAD:${path}`) }));
  const raw = (actions: unknown[]) => JSON.stringify({ actions });
  const replies = join(dir, `${name}-replies.json`);
  writeFileSync(
    replies,
    JSON.stringify({
      version: 1,
      demo: 'Scripted replies: the commit’s own change, and nothing.',
      replies: ['told', 'held'].flatMap((arm) => [
        { target: 'commit-fix', task: name, rep: 0, arm, raw: raw(writes) },
        { target: 'does-nothing', task: name, rep: 0, arm, raw: raw([]) },
      ]),
    }),
  );

  const out = join(dir, `${name}-run.jsonl`);
  const ran = memoryIo({ cwd: dir, env });
  const code = await main(
    [
      'run',
      ...['--tasks-dir', tasksDir, '--tasks', name, '--targets', 'commit-fix,does-nothing', '--reps', '1'],
      ...['--replies', replies, '--sandbox', '--installed-in', repo, '--no-judge', '--out', out],
    ],
    ran,
  );
  const state = reduceRunEvents((await readRunFile(out)).events);
  const arms = new Map<string, ArmResult>();
  for (const round of state.rounds) for (const result of [round.told, round.held]) if (result !== undefined) arms.set(`${round.target}/${result.arm}`, result);
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
    expect(fix.sandbox?.taskDone, why).toMatchObject({ command: accept, passed: true, exitCode: 0 });
    const nothing = arms.get(`does-nothing/${arm}`)!;
    expect(nothing.verdict, why).toBe('no-op');
    expect(nothing.sandbox?.taskDone, why).toMatchObject({ command: accept, passed: false });
  }
  return { fix: arms.get('commit-fix/told')!.sandbox!.taskDone!, nothing: arms.get('does-nothing/told')!.sandbox!.taskDone! };
}

describe('run --sandbox --installed-in on a task from a real commit', { timeout: TIMEOUT_MS }, () => {
  it('pnpm + vitest: the commit’s own change is done, nothing is not, with the repository’s node_modules read-only', async () => {
    const repo = repository(
      'ts-strings',
      {
        'package.json': '{ "name": "ts-strings", "private": true, "type": "module", "scripts": { "test": "vitest run" } }\n',
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'src/shout.ts': 'export const shout = (text: string): string => `${text.toUpperCase()}!`;\n',
        '.gitignore': 'node_modules\n',
      },
      {
        'src/words.ts': "export function countWords(text: string): number {\n  return text.split(/\\s+/).filter((word) => word !== '').length;\n}\n",
        'src/words.test.ts':
          "import { expect, test } from 'vitest';\nimport { countWords } from './words';\n\ntest('counts words', () => {\n  expect(countWords('the quick  brown fox')).toBe(4);\n});\n",
      },
    );
    // The repository's installed dependencies: vitest, as `pnpm install` would link it (here from holdfast's own install, offline).
    installVitestFrom(ROOT, repo);
    const { fix, nothing } = await playCommitTask(repo, 'pnpm test', 'src/words.test.ts');
    expect(fix.outputTail).toMatch(/1 passed/);
    // The hidden test ran and failed for want of the change, not for want of vitest.
    expect(nothing.outputTail).toMatch(/words/);
    expect(nothing.outputTail).not.toMatch(/vitest: not found/);
  });

  it('pytest from the repository’s .venv: the commit’s own change is done, nothing is not', async () => {
    if (findProgram('python3', process.env) === undefined)
      throw new Error('This test runs python3 for real and it is not on PATH: apt-get install python3-pytest.');
    const repo = repository(
      'py-calc',
      // Under src/, where the demo rulebook lets an agent write.
      { 'src/calc.py': 'def add(a, b):\n    return a + b\n', '.gitignore': '.venv/\n' },
      {
        'src/calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
        'src/test_mul.py': 'from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
      },
    );
    // The repository's virtual environment (pytest from the system's packages: nothing to download).
    execFileSync('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', join(repo, '.venv')]);
    const { fix, nothing } = await playCommitTask(repo, '.venv/bin/python -m pytest -q -p no:cacheprovider', 'src/test_mul.py');
    expect(fix.outputTail).toMatch(/1 passed/);
    expect(nothing.outputTail).toMatch(/cannot import name 'mul'/);
  });
});
