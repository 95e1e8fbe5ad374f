import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeStripsTypes, typescriptNodeOptions } from './typescript-support.js';

const dir = mkdtempSync(join(tmpdir(), 'holdfast-ts-support-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('TypeScript in sandbox commands', () => {
  it.each([
    ['20.19.0', false],
    ['22.5.1', false],
    ['22.6.0', true],
    ['22.18.0', true],
    ['24.1.0', true],
  ])('Node %s strips types itself: %s', (version, expected) => {
    expect(nodeStripsTypes(version)).toBe(expected);
    expect(typescriptNodeOptions(version) === undefined).toBe(expected);
  });

  it('preloads a hook on older Node under which a TypeScript test file really runs, and fails when it should', () => {
    const options = typescriptNodeOptions('20.0.0')!;
    writeFileSync(join(dir, 'math.ts'), 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    writeFileSync(
      join(dir, 'math.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from './math.ts';\ninterface Case { a: number; b: number; sum: number }\nconst cases: Case[] = [{ a: 1, b: 2, sum: 3 }];\ntest('adds', () => { for (const c of cases) assert.equal(add(c.a, c.b), c.sum); });\n",
    );
    writeFileSync(join(dir, 'broken.test.ts'), "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('fails', () => { const n: number = 1; assert.equal(n, 2); });\n");
    const env = { ...process.env, NODE_OPTIONS: options };
    const passing = spawnSync(process.execPath, ['--test', 'math.test.ts'], { cwd: dir, env, encoding: 'utf8' });
    expect(passing.stdout).toContain('# pass 1');
    expect(passing.status).toBe(0);
    const failing = spawnSync(process.execPath, ['--test', 'broken.test.ts'], { cwd: dir, env, encoding: 'utf8' });
    expect(failing.stdout).toContain('# fail 1');
    expect(failing.status).toBe(1);
  });
});

describe('bubblewrap mounts', () => {
  it('mounts a holdfast installed under /tmp again, read-only, after the private /tmp', async () => {
    const { bubblewrapArgs } = await import('./isolation.js');
    const args = bubblewrapArgs(['/work/repo'], '/work/repo', ['/tmp/ci/holdfast']);
    const tmpfs = args.indexOf('--tmpfs');
    const readOnly = args.lastIndexOf('/tmp/ci/holdfast');
    expect(args.slice(readOnly - 2, readOnly + 1)).toEqual(['--ro-bind', '/tmp/ci/holdfast', '/tmp/ci/holdfast']);
    expect(readOnly).toBeGreaterThan(tmpfs);
    expect(bubblewrapArgs(['/work/repo'], '/work/repo', ['/opt/holdfast'])).not.toContain('/opt/holdfast');
  });
});
