import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOLDFAST_BIN } from '@holdfast/lab/test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/**
 * A repository of over 10 MB of tracked text, above the old 4 MB cap and the 8 MB budget: about 9 MB of generated
 * modules in 150 folders, a docs tree and a lock file, then a commit that fixes `add` and ships its test.
 */
function largeRepo(): { root: string; fix: string } {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-large-repo-'));
  dirs.push(root);
  git(root, 'init', '-q', '-b', 'main');
  const files: Record<string, string> = {
    'package.json': '{"name":"large","type":"module","scripts":{"test":"node --test"}}\n',
    'add.mjs': 'export const add = (a, b) => a - b;\n',
    'package-lock.json': `${JSON.stringify({ name: 'large', lockfileVersion: 3, packages: Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`node_modules/dep${index}`, { version: '1.0.0' }])) }, null, 2)}\n`,
  };
  const body = (part: number, file: number) =>
    Array.from(
      { length: 100 },
      (_, line) => `export const value${line} = ${part * 1000 + file * 100 + line}; // part ${part}, file ${file}, line ${line}`,
    ).join('\n');
  for (let part = 0; part < 150; part++) for (let file = 0; file < 10; file++) files[`lib/part${part}/module${file}.mjs`] = `${body(part, file)}\n`;
  for (let page = 0; page < 40; page++) files[`docs/page${page}.md`] = `# Page ${page}\n\n${'Prose for people. '.repeat(1500)}\n`;
  write(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'start');
  write(root, {
    'add.mjs': 'export const add = (a, b) => a + b;\n',
    'add.test.mjs':
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from './add.mjs';\n\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
  });
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'Fix add: it subtracted');
  return { root, fix: git(root, 'rev-parse', '--short', 'HEAD') };
}

/** A `holdfast` on PATH that runs the built command, so a printed line runs exactly as a person would paste it. */
function holdfastOnPath(): string {
  const bin = mkdtempSync(join(tmpdir(), 'holdfast-bin-'));
  dirs.push(bin);
  const shim = join(bin, 'holdfast');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${HOLDFAST_BIN}' "$@"\n`);
  chmodSync(shim, 0o755);
  return bin;
}

describe('holdfast init on a repository above the old 4 MB cap', () => {
  it('works with no flags, says what it left out, and every tasks new line it prints runs verbatim', async () => {
    const { root, fix } = largeRepo();
    expect(
      Number(
        git(root, 'ls-tree', '-r', '-l', 'HEAD')
          .split('\n')
          .reduce((sum, line) => sum + Number(line.split(/\s+/)[3]), 0),
      ),
    ).toBeGreaterThan(10_000_000);
    const env = { ...process.env, PATH: `${holdfastOnPath()}:${process.env.PATH ?? ''}` };
    const init = spawnSync('sh', ['-c', 'holdfast init'], { cwd: root, env, encoding: 'utf8' });
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(
      /^Read \d+ files \(8\.0 MB\) of code, tests and config at [0-9a-f]{12}\. Left out: 1 lock files \(\d+ kB: package-lock\.json\); 40 docs \(1\.1 MB: docs\/\); \d+ sampled out \(\d+ kB, to stay within 8\.0 MB, generated files first: lib\/part\d+\/, /m,
    );
    expect(init.stdout).toContain("Bring a part back with --include 'docs/**', leave more out with --exclude GLOB, read more with --max-bytes N.");
    const printed = init.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('holdfast tasks new '));
    expect(printed).toEqual([`holdfast tasks new --from-commit ${fix} --out holdfast/tasks`]);
    for (const line of printed) {
      const made = spawnSync('sh', ['-c', line], { cwd: root, env, encoding: 'utf8' });
      expect(made.status, `${line}\n${made.stderr}`).toBe(0);
      expect(made.stdout).toMatch(/Acceptance: `npm test` with hidden add\.test\.mjs\./);
    }
    expect(
      existsSync(
        join(
          root,
          'holdfast',
          'tasks',
          `${root
            .split('/')
            .pop()!
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')}-${fix.slice(0, 7)}`,
          'task.yaml',
        ),
      ),
    ).toBe(true);
  }, 600_000);
});
