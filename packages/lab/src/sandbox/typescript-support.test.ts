import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commandNodeVersion, nodeStripsTypes, typescriptNodeOptions } from './typescript-support.js';

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

  it('takes an unknown Node not to strip types, so the hook is preloaded', () => {
    expect(nodeStripsTypes(undefined)).toBe(false);
    expect(typescriptNodeOptions(undefined)).toMatch(/^--import=/);
  });

  it("decides by the node a command's PATH finds, not the node running holdfast, and never runs one the repository holds", () => {
    const host = mkdtempSync(join(tmpdir(), 'holdfast-ts-host-'));
    const ran = join(host, 'repository-node-ran');
    // A host node of another line than the one running these tests: its answer, not process.versions, decides.
    writeFileSync(join(host, 'node'), '#!/bin/sh\necho 20.11.1\n');
    chmodSync(join(host, 'node'), 0o755);
    expect(commandNodeVersion([host, dirname(process.execPath)].join(delimiter))).toBe('20.11.1');
    expect(typescriptNodeOptions(commandNodeVersion(host))).toMatch(/^--import=/);
    expect(commandNodeVersion(dirname(process.execPath))).toBe(process.versions.node);
    // First on PATH, inside the repository: left unknown (so the hook is preloaded), and never started.
    const repository = mkdtempSync(join(tmpdir(), 'holdfast-ts-repo-'));
    mkdirSync(join(repository, '.venv', 'bin'), { recursive: true });
    writeFileSync(join(repository, '.venv', 'bin', 'node'), `#!/bin/sh\ntouch '${ran}'\necho 24.0.0\n`);
    chmodSync(join(repository, '.venv', 'bin', 'node'), 0o755);
    const path = [join(repository, '.venv', 'bin'), dirname(process.execPath)].join(delimiter);
    expect(commandNodeVersion(path, repository)).toBeUndefined();
    expect(existsSync(ran)).toBe(false);
    expect(commandNodeVersion(dirname(process.execPath), repository)).toBe(process.versions.node);
    expect(commandNodeVersion(join(host, 'missing'))).toBeUndefined();
  });

  it('preloads a hook on older Node under which a TypeScript test file really runs, and fails when it should', () => {
    const options = typescriptNodeOptions('20.0.0')!;
    writeFileSync(join(dir, 'math.ts'), 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    writeFileSync(
      join(dir, 'math.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from './math.ts';\ninterface Case { a: number; b: number; sum: number }\nconst cases: Case[] = [{ a: 1, b: 2, sum: 3 }];\ntest('adds', () => { for (const c of cases) assert.equal(add(c.a, c.b), c.sum); });\n",
    );
    writeFileSync(
      join(dir, 'broken.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('fails', () => { const n: number = 1; assert.equal(n, 2); });\n",
    );
    const env = { ...process.env, NODE_OPTIONS: options };
    // TAP by name: Node 23+ prints its spec reporter where Node 20 printed TAP to a pipe.
    const passing = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'math.test.ts'], { cwd: dir, env, encoding: 'utf8' });
    expect(passing.stdout).toContain('# pass 1');
    expect(passing.status).toBe(0);
    const failing = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'broken.test.ts'], { cwd: dir, env, encoding: 'utf8' });
    expect(failing.stdout).toContain('# fail 1');
    expect(failing.status).toBe(1);
  });
});

describe('bubblewrap mounts', () => {
  it('mounts what sits under /tmp after the private /tmp, on the host read-only, with the network only loopback', async () => {
    const { bubblewrapArgs } = await import('./isolation.js');
    const args = bubblewrapArgs({ writable: ['/tmp/ci/repo'], readable: ['/tmp/ci/holdfast/dist/sandbox'], cwd: '/tmp/ci/repo' });
    expect(args.slice(0, 2)).toEqual(['--unshare-all', '--die-with-parent']);
    expect(args).not.toContain('--share-net');
    const root = args.indexOf('/');
    expect(args.slice(root - 1, root + 2)).toEqual(['--ro-bind', '/', '/']);
    const tmpfs = args.indexOf('--tmpfs');
    expect(args.slice(tmpfs, tmpfs + 2)).toEqual(['--tmpfs', '/tmp']);
    expect(tmpfs).toBeGreaterThan(root);
    const readOnly = args.indexOf('/tmp/ci/holdfast/dist/sandbox');
    // Neither path exists on this machine, so neither is mounted (bubblewrap would fail on it).
    expect(readOnly).toBe(-1);
    expect(args.slice(-3)).toEqual(['--chdir', '/tmp/ci/repo', '--']);
  });

  it('lends commands only the hook and the packages it loads, never the rest of holdfast', async () => {
    const { typescriptPreloadPaths } = await import('./typescript-support.js');
    expect(typescriptPreloadPaths('24.0.0')).toEqual([]);
    const paths = typescriptPreloadPaths('20.19.0');
    const root = fileURLToPath(new URL('../../../..', import.meta.url)).replace(/\/$/, '');
    expect(paths).not.toContain(root);
    expect(paths[0]).toBe(join(root, 'packages', 'lab', 'dist', 'sandbox'));
    expect(paths.some((path) => path.endsWith('/node_modules/rolldown'))).toBe(true);
    for (const path of paths.slice(1)) expect(path).toMatch(/\/node_modules\/(?:@[^/]+\/)?[^/]+$/);
  });
});
