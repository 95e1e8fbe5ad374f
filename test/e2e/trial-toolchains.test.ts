import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installVitestFrom } from './installed-vitest.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '@holdfast/gate';
import { taskFromCommit } from '@holdfast/lab/onboard';
import { detectIsolation } from '@holdfast/lab/sandbox';
import type { Isolation } from '@holdfast/lab/sandbox';
import { requireIsolation } from '@holdfast/lab/test-support';

// Tasks from history on the team's own toolchain (issue 43): one small real repository per stack, each
// with a commit that adds a function and its test. Confined, the commit's test must fail on the parent
// and pass on the commit, run by the repository's own runner with its installed dependencies, offline.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 300_000;

let dir = '';
let isolation: Isolation;

function git(repo: string, ...args: string[]): void {
  execFileSync('git', ['-C', repo, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Mika',
      GIT_AUTHOR_EMAIL: 'mika@example.test',
      GIT_COMMITTER_NAME: 'Mika',
      GIT_COMMITTER_EMAIL: 'mika@example.test',
    },
  });
}

function commit(repo: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** A repository whose first commit holds `base`, and whose second adds the function and its test. */
function repository(name: string, base: Record<string, string>, change: Record<string, string>): string {
  const repo = join(dir, name);
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  commit(repo, base, 'first');
  commit(repo, change, 'Add the function and its test');
  return repo;
}

function requireProgram(program: string, install: string): void {
  if (findProgram(program, process.env) === undefined)
    throw new Error(`This test runs ${program} for real and it is not on PATH: ${install} (test/setup/system-tools.ts installs it as root).`);
}

beforeAll(async () => {
  await requireIsolation();
  isolation = await detectIsolation();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-trial-toolchains-')));
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

async function validates(repo: string, command: string) {
  const task = await taskFromCommit(repo, 'HEAD', { isolation, timeoutMs: TIMEOUT_MS, command });
  expect(task.untouched.passed, task.untouched.outputTail).toBe(false);
  expect(task.done, task.done.outputTail).toMatchObject({ passed: true, exitCode: 0 });
  return task;
}

describe('a task from a real commit, confined, on the repository’s own toolchain', { timeout: TIMEOUT_MS * 2 }, () => {
  it('Python: pytest', async () => {
    requireProgram('pytest', 'apt-get install python3-pytest');
    const repo = repository(
      'py-calc',
      {
        'calc.py': 'def add(a, b):\n    return a + b\n',
        'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
        '.gitignore': '.venv/\n',
      },
      {
        'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
        'test_mul.py': 'from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
      },
    );
    const task = await validates(repo, 'pytest -q -p no:cacheprovider');
    expect(Object.keys(task.acceptance.files)).toEqual(['test_mul.py']);
    expect(task.untouched.outputTail).toMatch(/ImportError|cannot import name 'mul'/);
  });

  it('Go: go test', async () => {
    requireProgram('go', 'apt-get install golang-go');
    const repo = repository(
      'go-sum',
      { 'go.mod': 'module example.test/sum\n\ngo 1.19\n', 'sum.go': 'package sum\n\nfunc Add(a, b int) int { return a + b }\n' },
      {
        'sum.go': 'package sum\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n',
        'sum_test.go': 'package sum\n\nimport "testing"\n\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal("Mul(2, 3) != 6")\n\t}\n}\n',
      },
    );
    const task = await validates(repo, 'go test ./...');
    expect(task.untouched.outputTail).toMatch(/undefined: Mul/);
  });

  it('Rust: cargo test', async () => {
    requireProgram('cargo', 'install Rust (apt-get install cargo, or rustup)');
    const repo = repository(
      'rs-adder',
      {
        'Cargo.toml': '[package]\nname = "adder"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        'Cargo.lock':
          '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n[[package]]\nname = "adder"\nversion = "0.1.0"\n',
        'src/lib.rs': 'pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n',
        '.gitignore': 'target/\n',
      },
      {
        'src/lib.rs': 'pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n\npub fn mul(a: i64, b: i64) -> i64 {\n    a * b\n}\n',
        'tests/mul.rs': '#[test]\nfn multiplies() {\n    assert_eq!(adder::mul(2, 3), 6);\n}\n',
      },
    );
    const task = await validates(repo, 'cargo test --offline -j 2');
    expect(task.untouched.outputTail).toMatch(/mul/);
  });

  it('TypeScript: pnpm with vitest, its node_modules installed in the repository and read-only in the trial', async () => {
    requireProgram('pnpm', 'npm install -g pnpm@10 (or corepack enable)');
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
    const task = await validates(repo, 'pnpm test');
    expect(task.done.outputTail).toMatch(/1 passed/);
  });

  it('says which program is missing in the trial, instead of "the tests do not pass"', async () => {
    const repo = repository('missing-runner', { 'a.txt': 'a\n' }, { 'tests/test_a.py': 'def test_a():\n    pass\n' });
    await expect(taskFromCommit(repo, 'HEAD', { isolation, timeoutMs: TIMEOUT_MS, command: 'holdfast-no-such-runner' })).rejects.toThrow(
      /holdfast-no-such-runner is not available in the trial/,
    );
  });
});
