import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeParseJson } from '@holdfast/core/contract';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-package-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function touch(root: string, path: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), 'x\n');
}

/** What `npm pack` would put in the tarball of `root`, without running any script. */
async function packedPaths(root: string): Promise<string[]> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
  const parsed = safeParseJson(stdout);
  if (!parsed.ok) throw new Error(`npm pack --json printed no JSON: ${stdout.slice(0, 200)}`);
  const [pack] = parsed.value as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((file) => file.path).sort();
}

describe('the published package', () => {
  // The `files` list is the policy under test, so it is applied to a tree holding one file of every
  // kind a working copy may hold, whatever has been built or run here.
  it('ships the built CLI, library, hook and web app with the data they read, and nothing else', async () => {
    const tree = join(dir, 'tree');
    mkdirSync(tree);
    copyFileSync(join(ROOT, 'package.json'), join(tree, 'package.json'));
    const shipped = [
      'bin/holdfast.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/hook/hook.cjs',
      'dist/web/index.html',
      'dist/web/assets/index-abc123.js',
      'rulebooks/default.yaml',
      'tasks/skip-flaky-ci/task.yaml',
      'tasks/skip-flaky-ci/repo/src/lib/http.ts',
      'fixtures/pressure/example.yaml',
      'runs/demo/replies.json',
      'runs/example.jsonl',
      'runs/example-agent.jsonl',
      'runs/example-loop.jsonl',
      'runs/pressure/example.jsonl',
      'scripts/prepare.mjs',
    ];
    const left = [
      'dist/bench/index.js',
      'dist/sandbox/test-support.js',
      'dist/models/test-support/fake-openai-server.js',
      'dist/rules/check-actions.test.js',
      'runs/2026-11-30-local.jsonl',
      'runs/pressure/local.jsonl',
      'src/index.ts',
      'web/src/app.tsx',
      'test/e2e/web.test.ts',
      'fixtures/traffic/codex-0.171.0/index.json',
      'scripts/build-hook.mjs',
      '.env',
      'holdfast.config.yaml',
    ];
    for (const path of [...shipped, ...left]) touch(tree, path);
    expect(await packedPaths(tree)).toEqual([...shipped, 'package.json'].sort());
  });

  it('packs every tracked file of the data users need (npm silently drops some names, such as .npmrc)', async () => {
    const { stdout } = await run('git', ['ls-files', '-z', 'tasks', 'fixtures/pressure', 'rulebooks', 'runs/demo'], { cwd: ROOT });
    const tracked = stdout.split('\0').filter((path) => path !== '');
    const packed = new Set(await packedPaths(ROOT));
    expect(tracked.length).toBeGreaterThan(100);
    expect(tracked.filter((path) => !packed.has(path))).toEqual([]);
  });

  it('points its exports and bin at files the build makes', async () => {
    const manifest = safeParseJson(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.ok).toBe(true);
    const pkg = (manifest.ok ? manifest.value : {}) as { exports: Record<string, unknown>; types: string; bin: Record<string, string> };
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.types).toBe('./dist/index.d.ts');
    expect(pkg.bin.holdfast).toBe('bin/holdfast.js');
  });

  it('is importable by name: the library API judges actions against the shipped rulebook', async () => {
    const user = join(dir, 'user');
    mkdirSync(join(user, 'node_modules'), { recursive: true });
    symlinkSync(ROOT, join(user, 'node_modules', 'holdfast'), 'dir');
    const script = [
      "import { checkActions, loadRulebook, defaultRulebookPath, parseReply } from 'holdfast';",
      'const rulebook = await loadRulebook(defaultRulebookPath());',
      "const reply = parseReply(JSON.stringify({ actions: [{ type: 'write', path: 'src/features/orders.ts', content: 'export const orders = [];' }] }));",
      "const results = await checkActions(reply.kind === 'actions' ? reply.actions : [], [], rulebook);",
      'console.log(JSON.stringify({ kind: reply.kind, failed: results.filter((result) => !result.ok).map((result) => result.rule) }));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: user });
    expect(JSON.parse(stdout)).toEqual({ kind: 'actions', failed: ['R3'] });
  });
});

describe('holdfast piped into a reader that stops early', () => {
  it('ends quietly with exit 0 when its stdout is closed (`holdfast … | head`)', async () => {
    // The reading end is closed before the command writes a byte, so every write meets EPIPE.
    const child = spawn(process.execPath, [join(ROOT, 'bin/holdfast.js'), 'report', join(ROOT, 'runs/example.jsonl'), '--format', 'junit'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
