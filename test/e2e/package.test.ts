import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The files policy of a package, applied to a tree holding one file of every kind a working copy of it may hold. */
async function packedOf(folder: string, shipped: readonly string[], left: readonly string[]): Promise<string[]> {
  const tree = join(dir, folder.replaceAll('/', '-'));
  mkdirSync(tree, { recursive: true });
  copyFileSync(join(ROOT, folder, 'package.json'), join(tree, 'package.json'));
  for (const path of [...shipped, ...left]) touch(tree, path);
  return packedPaths(tree);
}

describe('the published packages', () => {
  // The `files` lists are the policy under test, so each is applied to a tree holding one file of every
  // kind a working copy may hold, whatever has been built or run here.
  it('the gate ships its command, its build and the bundled hook, and no test, test support or source', async () => {
    const shipped = [
      'bin/holdfast-gate.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/decide/decide.js',
      'dist/commands/hook.js',
      'dist/hook-bundle/hook.cjs',
      'dist/hook-bundle/decide.cjs',
    ];
    const left = [
      'dist/test-support.js',
      'dist/test-support/payloads.js',
      'dist/tamper.test.js',
      'dist/.tsbuildinfo',
      'src/index.ts',
      'scripts/build-hook.mjs',
    ];
    expect(await packedOf('packages/gate', shipped, left)).toEqual([...shipped, 'package.json'].sort());
  });

  it('the CLI ships its command and its build, and no test or source', async () => {
    const shipped = ['bin/holdfast.js', 'dist/index.js', 'dist/index.d.ts', 'dist/main.js', 'dist/commands/run.js'];
    const left = ['dist/commands/run-resume-lock.test.js', 'src/main.ts', 'src/commands/run.ts'];
    expect(await packedOf('packages/cli', shipped, left)).toEqual([...shipped, 'package.json'].sort());
  });

  it('the core, the lab and the app ship their builds without test support', async () => {
    for (const folder of ['packages/core', 'packages/lab', 'packages/app']) {
      const shipped = ['dist/store/index.js', 'dist/store/index.d.ts'];
      const left = ['dist/test-support.js', 'dist/models/test-support/fake-openai-server.js', 'dist/store/run-state.test.js', 'src/store/index.ts'];
      expect(await packedOf(folder, shipped, left), folder).toEqual([...shipped, 'package.json'].sort());
    }
  });

  it('points every export and bin at a file the build makes', () => {
    for (const folder of ['core', 'gate', 'lab', 'app', 'cli']) {
      const manifest = safeParseJson(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'));
      expect(manifest.ok).toBe(true);
      const pkg = (manifest.ok ? manifest.value : {}) as { exports: Record<string, string | Record<string, string>>; bin?: Record<string, string> };
      for (const [subpath, target] of Object.entries(pkg.exports)) {
        if (subpath === './package.json' || subpath.endsWith('test-support')) continue;
        const files = typeof target === 'string' ? [target] : [target['default']!, target['types']!];
        // A pattern (`./rulebooks/*`) points at a folder of shipped data: the folder must be there.
        for (const file of files.map((path) => path.replace(/\/\*$/, '')))
          expect(existsSync(join(ROOT, 'packages', folder, file)), `${folder} ${subpath} → ${file}`).toBe(true);
      }
      for (const file of Object.values(pkg.bin ?? {})) expect(existsSync(join(ROOT, 'packages', folder, file))).toBe(true);
    }
  });

  it('is importable by name: the library API judges actions against the shipped rulebook', async () => {
    const script = [
      "import { checkActions, loadRulebook, defaultRulebookPath, parseReply } from 'holdfast';",
      'const rulebook = await loadRulebook(defaultRulebookPath());',
      "const reply = parseReply(JSON.stringify({ actions: [{ type: 'write', path: 'src/features/orders.ts', content: 'export const orders = [];' }] }));",
      "const results = await checkActions(reply.kind === 'actions' ? reply.actions : [], [], rulebook);",
      'console.log(JSON.stringify({ kind: reply.kind, failed: results.filter((result) => !result.ok).map((result) => result.rule) }));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({ kind: 'actions', failed: ['R3'] });
  });
});

describe('holdfast piped into a reader that stops early', () => {
  it('ends quietly with exit 0 when its stdout is closed (`holdfast … | head`)', async () => {
    // The reading end is closed before the command writes a byte, so every write meets EPIPE.
    const child = spawn(process.execPath, [join(ROOT, 'packages/cli/bin/holdfast.js'), 'report', join(ROOT, 'runs/example.jsonl'), '--format', 'junit'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
