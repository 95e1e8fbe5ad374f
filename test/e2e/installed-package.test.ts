import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeParseJson } from '@holdfast/core/contract';
import { gitTestEnv } from '@holdfast/gate/test-support';

// The packages as a user gets them: `npm pack` of each workspace package, installed from those
// tarballs into an empty project (their npm dependencies from the registry cache), then the installed
// `holdfast` run on its embedded defaults beside the clone's. Slow (two installs), so one file.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['core', 'gate', 'lab', 'app', 'cli'] as const;
/** The data each package ships, as the clone holds it (the root folders of the same names link here). */
const SHIPPED_DATA: Record<string, readonly string[]> = { core: ['rulebooks'], lab: ['tasks', 'fixtures/pressure', 'runs/demo'] };
/** What the gate must never pull in: the lab, the app and their heavy dependencies. */
const NOT_FOR_THE_GATE = [
  'express',
  'react',
  'react-dom',
  '@tanstack/react-virtual',
  'bullmq',
  'ioredis',
  'rolldown',
  '@holdfast/lab',
  '@holdfast/app',
  'holdfast',
];
/** A hang detector, not a margin: npm installs take what the machine's load makes them take (167 s at load 12). */
const INSTALL_MS = 900_000;
/** A Write of a test file that logs, as Claude Code 2.1.197 sent it to its PreToolUse hook, and the project it ran in. */
const RECORDED_WRITE = 'fixtures/traffic/claude-code-2.1.197/write-denied-reason-reaches-model/hooks/01-pre-tool-use-write.json';
const RECORDED_ROOT = '/tmp/holdfast-record-ZwInw5';
/** A rulebook whose one rule reads Python, which needs ast-grep's Python parser. */
const PYTHON_RULEBOOK = `version: 1
name: python
rules:
  - id: P1
    name: NOPRINT
    prose: Do not call print in src/.
    check:
      kind: code
      what: a print call
      language: python
      files: ['src/**/*.py']
      rule: { pattern: 'print($$$ARGS)' }
`;

/** A rulebook with no code rule: only where files may be written, which needs no parser. */
const PATHS_RULEBOOK = `version: 1
name: paths
rules:
  - id: S1
    name: ONLYSRC
    prose: Only write inside src/.
    check:
      kind: scope
      allow: ['src/**']
`;

const run = promisify(execFile);
let scratch: string;
const tarballs = new Map<string, string>();
const packed = new Map<string, string[]>();

interface PackEntry {
  readonly name: string;
  readonly filename: string;
  readonly files: readonly { path: string }[];
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'holdfast-installed-'));
  const destination = join(scratch, 'tarballs');
  mkdirSync(destination);
  // Scripts are skipped: the app's prepack (the web build) would rewrite dist/web of this working tree
  // while other test files read it. What is tested here is what `files` ships and how the code finds it.
  const workspaces = PACKAGES.flatMap((folder) => ['-w', `packages/${folder}`]);
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination, ...workspaces], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const parsed = safeParseJson(stdout);
  if (!parsed.ok) throw new Error(`npm pack --json printed no JSON: ${stdout.slice(0, 200)}`);
  for (const entry of parsed.value as PackEntry[]) {
    const folder = entry.name === 'holdfast' ? 'cli' : entry.name.replace('@holdfast/', '');
    tarballs.set(folder, join(destination, entry.filename));
    packed.set(
      folder,
      entry.files.map((file) => file.path),
    );
  }
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** An empty project with the given tarballs installed, dependencies from npm's cache where it has them. */
async function installedProject(name: string, folders: readonly string[]): Promise<string> {
  const project = join(scratch, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true })}\n`);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...folders.map((folder) => tarballs.get(folder)!)], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });
  return project;
}

/** Every package name in a project's node_modules, scoped ones included. */
function installedNames(project: string): string[] {
  const modules = join(project, 'node_modules');
  return readdirSync(modules)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => (entry.startsWith('@') ? readdirSync(join(modules, entry)).map((scoped) => `${entry}/${scoped}`) : [entry]));
}

/** A Claude Code PreToolUse event: a Write of a module that logs, which the shipped R4 refuses. */
function loggingWrite(repo: string): string {
  return JSON.stringify({
    session_id: 'installed-1',
    transcript_path: join(repo, '.claude', 'transcript.jsonl'),
    cwd: repo,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(repo, 'src/features/pay.ts'), content: 'export const pay = () => console.log("paid");\n' },
    tool_use_id: 'toolu_write_01',
  });
}

async function gitRepo(at: string): Promise<string> {
  mkdirSync(at, { recursive: true });
  await run('git', ['init', '-q'], { cwd: at });
  return at;
}

/** A program's exit code and output; it never throws, so a refusal can be asserted. */
function exited(
  program: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(program, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

/** Runs a node script with a hook event on stdin; the hook answers on stdout. */
function hookAnswer(args: readonly string[], cwd: string, event: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
    child.stdin?.end(event);
  });
}

/** The totals `holdfast run --json` prints, without what differs between any two runs (id, file). */
function totalsOf(stdout: string): unknown {
  const parsed = safeParseJson(stdout);
  if (!parsed.ok) throw new Error(`holdfast run --json printed no JSON: ${stdout.slice(0, 200)}`);
  const { runId: _runId, file: _file, ...totals } = parsed.value as Record<string, unknown>;
  return totals;
}

function runStart(file: string): { rulebook: unknown; tasks: unknown; config: { repliesOf?: string } } {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { rulebook: unknown; tasks: unknown; config: { repliesOf?: string } };
}

describe('holdfast installed from its packed tarballs', () => {
  it('ships each package its embedded data, every file the clone tracks', async () => {
    for (const [folder, folders] of Object.entries(SHIPPED_DATA)) {
      const { stdout } = await run('git', ['ls-files', '--', ...folders], { cwd: join(ROOT, 'packages', folder) });
      const tracked = stdout.split('\n').filter((line) => line !== '');
      expect(tracked.length, folder).toBeGreaterThan(0);
      expect(
        tracked.filter((path) => !packed.get(folder)!.includes(path)),
        `${folder}: tracked data files npm pack left out`,
      ).toEqual([]);
    }
  });

  it(
    'runs the shipped demo on the shipped rulebook and tasks as the clone does, and its hook judges an event',
    async () => {
      const project = await installedProject('user-project', PACKAGES);
      const bin = join(project, 'node_modules', 'holdfast', 'bin', 'holdfast.js');
      const installed = await run(process.execPath, [bin, 'run', '--replies', 'demo', '--json', '--concurrency', '1', '--out', join(project, 'demo.jsonl')], {
        cwd: project,
        maxBuffer: 16 * 1024 * 1024,
      });
      const cloneCwd = mkdtempSync(join(scratch, 'clone-cwd-'));
      const clone = await run(
        process.execPath,
        [
          join(ROOT, 'packages/cli/bin/holdfast.js'),
          'run',
          '--replies',
          join(ROOT, 'runs/demo/replies.json'),
          '--json',
          '--concurrency',
          '1',
          '--out',
          join(cloneCwd, 'demo.jsonl'),
        ],
        { cwd: cloneCwd, maxBuffer: 16 * 1024 * 1024 },
      );
      expect(totalsOf(installed.stdout)).toEqual(totalsOf(clone.stdout));
      const [mine, theirs] = [runStart(join(project, 'demo.jsonl')), runStart(join(cloneCwd, 'demo.jsonl'))];
      expect(mine.rulebook).toEqual(theirs.rulebook);
      expect(mine.tasks).toEqual(theirs.tasks);
      // The shipped replies are recorded by their name, not by where this installation keeps them, so the
      // file resumes wherever holdfast is installed; the clone's run names the file it was given.
      expect(mine.config.repliesOf).toBe('demo');
      expect(theirs.config.repliesOf).toBe(join(ROOT, 'runs/demo/replies.json'));

      // The shipped pressure suite, bound to the shipped rulebook, when the project has none of its own.
      const coverage = await run(process.execPath, [bin, 'pressure', 'coverage'], { cwd: project });
      const cloneCoverage = await run(process.execPath, [join(ROOT, 'packages/cli/bin/holdfast.js'), 'pressure', 'coverage'], { cwd: cloneCwd });
      expect(coverage.stdout).toBe(cloneCoverage.stdout);
      expect(coverage.stdout).toMatch(/^R4 NOLOG /m);

      const repo = await gitRepo(join(project, 'repo'));
      mkdirSync(join(repo, 'holdfast'));
      // The core's rulebooks are reachable by name through its exports, as a user would copy one.
      const shipped = createRequire(join(project, 'package.json')).resolve('@holdfast/core/rulebooks/default.yaml');
      writeFileSync(join(repo, 'holdfast', 'rulebook.yaml'), readFileSync(shipped));
      const answer = await hookAnswer([bin, 'hook', 'claude-code'], repo, loggingWrite(repo));
      expect(answer).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(answer.stdout)).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/R4 NOLOG/) },
      });
    },
    INSTALL_MS,
  );

  it(
    'installs the gate alone, without the lab, the app or their dependencies, and its own command installs, hooks, checks and verifies in an empty project',
    async () => {
      const project = await installedProject('gate-only', ['gate', 'core']);
      const names = installedNames(project);
      expect(names).toContain('@holdfast/gate');
      expect(names.filter((name) => NOT_FOR_THE_GATE.includes(name))).toEqual([]);
      // ast-grep's Python, Go and Rust parsers are the core's optional peers: the gate alone comes without them.
      expect(names.filter((name) => name.startsWith('@ast-grep/lang-'))).toEqual([]);

      // An empty git project of a team's, with the shipped rulebook committed as its own.
      const home = join(scratch, 'gate-only-home');
      mkdirSync(home);
      const env = gitTestEnv({ HOME: home });
      await run('git', ['init', '-q', '-b', 'main'], { cwd: project, env });
      mkdirSync(join(project, 'holdfast'));
      const shipped = createRequire(join(project, 'package.json')).resolve('@holdfast/core/rulebooks/default.yaml');
      writeFileSync(join(project, 'holdfast', 'rulebook.yaml'), readFileSync(shipped));
      writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src', 'orders.ts'), 'export const orders = 1;\n');
      writeFileSync(join(project, 'src', 'orders.test.ts'), "import './orders';\n");
      await run('git', ['add', '-A'], { cwd: project, env });
      await run('git', ['commit', '-q', '-m', 'base'], { cwd: project, env });
      const base = (await run('git', ['rev-parse', 'HEAD'], { cwd: project, env })).stdout.trim();

      // The command npm linked for the gate alone.
      const gate = (args: readonly string[]) => exited(join(project, 'node_modules', '.bin', 'holdfast-gate'), args, project, env);

      const installed = await gate(['install', 'claude-code']);
      expect(installed).toMatchObject({ code: 0, stderr: '' });
      // The committed settings find the project's own gate: nothing is recorded for this clone.
      expect(existsSync(join(project, '.holdfast', 'hook-location'))).toBe(false);
      expect(readFileSync(join(project, '.git', 'hooks', 'pre-commit'), 'utf8')).toContain(
        join(project, 'node_modules', '@holdfast', 'gate', 'dist', 'hook-bundle', 'hook.cjs'),
      );
      const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as {
        hooks: Record<string, { hooks: { command: string }[] }[]>;
      };
      const command = settings.hooks['PreToolUse']![0]!.hooks[0]!.command;

      // The installed command, run as Claude Code runs it, on the payload Claude Code 2.1.197 really sent.
      const recorded = readFileSync(join(ROOT, RECORDED_WRITE), 'utf8').replaceAll(RECORDED_ROOT, project);
      const answer = await exited('/bin/sh', ['-c', command], project, { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_PROJECT_DIR: project }, recorded);
      expect(answer).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(answer.stdout)).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/R4 NOLOG/) },
      });
      expect(existsSync(join(project, 'src', 'debug.test.ts'))).toBe(false);

      // A rulebook with a Python rule names the parser package to install, and the gate fails closed until it is there.
      writeFileSync(join(project, 'holdfast', 'python.yaml'), PYTHON_RULEBOOK);
      const entry = join(project, 'node_modules', '@holdfast', 'gate', 'dist', 'hook-bundle', 'hook.cjs');
      const withoutParser = await exited(
        process.execPath,
        [entry, 'claude-code', '--rulebook', 'holdfast/python.yaml'],
        project,
        { PATH: process.env.PATH ?? '', HOME: home },
        recorded,
      );
      expect(withoutParser.code).toBe(0);
      expect(JSON.parse(withoutParser.stdout)).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: 'deny',
          permissionDecisionReason: expect.stringContaining(
            'field check.language (line 10): the Python parser is not available (its parser package @ast-grep/lang-python is not installed; install it beside holdfast: `npm install --save-dev @ast-grep/lang-python@0.0.6`)',
          ),
        },
      });

      const doctor = await gate(['doctor', '--json']);
      expect(doctor.code).toBe(0);
      const checks = (JSON.parse(doctor.stdout) as { ok: boolean; checks: { area: string; ok: boolean; what: string }[] }).checks;
      expect(checks.filter((check) => !check.ok)).toEqual([]);
      expect(checks.find((check) => check.what.startsWith('the hook command starts and answers'))).toMatchObject({ area: 'claude-code', ok: true });

      // A clean change passes the installed git gate and verify; one that skipped the local hooks is verify's finding.
      writeFileSync(join(project, 'src', 'orders.ts'), 'export const orders = 2;\n');
      await run('git', ['commit', '-q', '-am', 'orders'], { cwd: project, env });
      expect(await gate(['verify', '--base', base])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^holdfast verify: /m) });
      writeFileSync(join(project, 'src', 'orders.ts'), 'export const orders = () => console.log(2);\n');
      const refused = await exited('git', ['commit', '-q', '-am', 'log orders'], project, env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/R4 NOLOG/);
      await run('git', ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-am', 'log orders'], { cwd: project, env });
      const verified = await gate(['verify', '--base', base]);
      expect(verified.code).toBe(1);
      expect(verified.stdout).toMatch(/R4 NOLOG/);

      expect(await gate(['uninstall', 'claude-code'])).toMatchObject({ code: 0, stderr: '' });
      // install made the settings file, so taking holdfast's entries out leaves none.
      expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(false);

      // The same verbs as the full CLI's: one code, one help text.
      for (const verb of ['install', 'uninstall', 'doctor', 'verify', 'hook']) {
        const clone = await run(process.execPath, [join(ROOT, 'packages/cli/bin/holdfast.js'), verb, '--help'], { cwd: project });
        expect((await gate([verb, '--help'])).stdout, verb).toBe(clone.stdout);
      }

      // Without ast-grep's native parser, as an install made with `--omit=optional` has it: the set is small, a
      // rulebook without a code rule runs, and a code rule refuses what it cannot read, naming the command that
      // brings the parser back (judged by text, a rule without text patterns would have passed it).
      await run('npm', ['prune', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
      expect(installedNames(project).filter((name) => name.startsWith('@ast-grep/napi-'))).toEqual([]);
      const kibibytes = Number((await run('du', ['-sk', join(project, 'node_modules')])).stdout.split('\t')[0]);
      expect(kibibytes, `the gate without native parsers takes ${kibibytes} KiB`).toBeLessThanOrEqual(20 * 1024);
      const hookEnv = { PATH: process.env.PATH ?? '', HOME: home };
      const noParser = await exited(process.execPath, [entry, 'claude-code'], project, hookEnv, recorded);
      expect(noParser.code).toBe(0);
      expect(JSON.parse(noParser.stdout)).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: 'deny',
          permissionDecisionReason: expect.stringMatching(
            /R4 NOLOG[\s\S]*ast-grep's native parser for [\w-]+ does not load[\s\S]*`npm install --include=optional`/,
          ),
        },
      });
      writeFileSync(join(project, 'holdfast', 'paths.yaml'), PATHS_RULEBOOK);
      const pathsOnly = await exited(process.execPath, [entry, 'claude-code', '--rulebook', 'holdfast/paths.yaml'], project, hookEnv, recorded);
      expect(pathsOnly).toMatchObject({ code: 0, stderr: '' });
      expect(pathsOnly.stdout).not.toMatch(/"deny"/);
      const outside = recorded.replaceAll(`${project}/src/debug.test.ts`, `${project}/debug.test.ts`);
      expect(
        JSON.parse((await exited(process.execPath, [entry, 'claude-code', '--rulebook', 'holdfast/paths.yaml'], project, hookEnv, outside)).stdout),
      ).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/S1 ONLYSRC/) },
      });
    },
    INSTALL_MS,
  );
});
