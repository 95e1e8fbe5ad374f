import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletion, openAiAgent, startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeServer } from '@holdfast/lab/test-support';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

// `tasks new --from-commit` for a commit whose test imports an installed package: refused without
// the packages, made with --node-modules, and then judged with them by `run --sandbox --node-modules`.

const dirs: string[] = [];
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.test',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.test',
    },
  }).toString('utf8');
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

const PRICE = "import { roundHalfEven } from 'banker-round';\n\nexport const price = (cents) => roundHalfEven(cents * 1.25);\n";
const PRICE_TEST = [
  "import assert from 'node:assert/strict';",
  "import { test } from 'node:test';",
  "import { roundHalfEven } from 'banker-round';",
  "import { price } from './price.mjs';",
  '',
  "test('price adds 25 % and rounds half to even', () => {",
  '  assert.equal(roundHalfEven(2.5), 2);',
  '  assert.equal(price(2), 2);',
  '  assert.equal(price(6), 8);',
  '});',
  '',
].join('\n');

/** A shop whose second commit adds price() and a test, both importing `banker-round`, installed in the untracked node_modules/. */
function shopRepo(): string {
  const repo = mkdtempSync(join(tmpdir(), 'holdfast-tasks-node-modules-'));
  dirs.push(repo);
  git(repo, 'init', '-q', '-b', 'main');
  write(repo, {
    'package.json':
      '{ "name": "shop", "private": true, "type": "module", "scripts": { "test": "node --test" }, "dependencies": { "banker-round": "1.0.0" } }\n',
    '.gitignore': 'node_modules/\n',
    'src/total.mjs': 'export const total = (items) => items.reduce((sum, item) => sum + item, 0);\n',
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'total()');
  write(repo, { 'src/price.mjs': PRICE, 'src/price.test.mjs': PRICE_TEST });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'Add price(cents): VAT included, rounded half to even');
  // What `npm install` would have left: a package the tests import, outside what git tracks.
  write(repo, {
    'node_modules/banker-round/package.json': '{ "name": "banker-round", "version": "1.0.0", "type": "module", "exports": "./index.js" }\n',
    'node_modules/banker-round/index.js':
      'export function roundHalfEven(value) {\n  const floor = Math.floor(value);\n  const rest = value - floor;\n  if (rest !== 0.5) return Math.round(value);\n  return floor % 2 === 0 ? floor : floor + 1;\n}\n',
  });
  return repo;
}

async function cli(cwd: string, ...args: string[]) {
  const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast tasks new --from-commit --node-modules', () => {
  it('without the packages the commit’s tests cannot pass and the task is refused; with the repository’s installed ones, or --node-modules, it is made', async () => {
    const repo = shopRepo();
    const out = join(repo, '..', `${repo.split('/').pop()!}-tasks`);
    dirs.push(out);
    renameSync(join(repo, 'node_modules'), join(repo, '..', `${repo.split('/').pop()!}-packages`));
    const refused = await cli(repo, 'tasks', 'new', '--from-commit', 'HEAD', '--out', out, '--id', 'price');
    renameSync(join(repo, '..', `${repo.split('/').pop()!}-packages`), join(repo, 'node_modules'));
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /do not pass on the commit itself with `npm test` \(exit code 1;[\s\S]*they need the package "banker-round", which the trial does not have: give --node-modules DIR/,
    );
    // Installed in the repository (ignored by git), the packages are bound into the trial read-only.
    const installed = await cli(repo, 'tasks', 'new', '--from-commit', 'HEAD', '--out', out, '--id', 'price-installed');
    expect(installed.code, installed.err).toBe(0);

    const made = await cli(repo, 'tasks', 'new', '--from-commit', 'HEAD', '--out', out, '--id', 'price', '--node-modules', 'node_modules');
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain('Acceptance: `npm test` with hidden src/price.test.mjs.');
    expect(made.out).toContain(`Run it: holdfast run --tasks-dir ${out} --tasks price --sandbox --node-modules node_modules --targets <id>`);
    // The packages are not part of the task: the run links them in again.
    expect(existsSync(join(out, 'price', 'repo', 'node_modules'))).toBe(false);
    expect(readFileSync(join(out, 'price', 'repo', 'package.json'), 'utf8')).toContain('banker-round');

    // The task, run as it says: a model that makes the change is done, one that does nothing is not.
    const change = JSON.stringify({
      actions: [
        { type: 'write', path: 'src/price.mjs', content: PRICE },
        { type: 'write', path: 'src/price.test.mjs', content: PRICE_TEST },
      ],
    });
    const config: string[] = ['version: 1', 'targets:'];
    for (const [id, reply] of [
      ['changes', change],
      ['idle', '{"actions":[]}'],
    ] as const) {
      const server = await startFakeOpenAi({ script: () => chatCompletion(reply) });
      servers.push(server);
      config.push(`  - { id: ${id}, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", maxAttempts: 1 }`);
    }
    writeFileSync(join(repo, 'holdfast.config.yaml'), `${config.join('\n')}\n`);
    const runFile = join(out, 'run.jsonl');
    const run = await cli(
      repo,
      'run',
      '--targets',
      'changes,idle',
      '--tasks-dir',
      out,
      '--tasks',
      'price',
      '--sandbox',
      '--node-modules',
      'node_modules',
      '--unsafe-no-isolation',
      '--no-judge',
      '--out',
      runFile,
    );
    expect(run.code, run.err).toBe(0);
    const rounds = [...reduceRunEvents((await readRunFile(runFile)).events).rounds];
    const done = rounds.map((round) => [round.target, round.told?.verdict, round.told?.sandbox?.taskDone?.passed, round.held?.sandbox?.taskDone?.passed]);
    expect(done, JSON.stringify(rounds.map((round) => round.told?.sandbox?.taskDone))).toEqual([
      ['changes', 'clean', true, true],
      ['idle', 'no-op', false, false],
    ]);

    // Loop mode links the same folder into each arm: the model's own `npm test` and the hidden check both import the package.
    const agent = await startFakeOpenAi({
      script: openAiAgent((turn) =>
        turn === 1
          ? {
              calls: [
                { name: 'write_file', input: { path: 'src/price.mjs', content: PRICE } },
                { name: 'write_file', input: { path: 'src/price.test.mjs', content: PRICE_TEST } },
              ],
            }
          : turn === 2
            ? { calls: [{ name: 'run_command', input: { command: 'npm test' } }] }
            : { text: 'Added price() with its test; the tests pass.' },
      ),
    });
    servers.push(agent);
    writeFileSync(
      join(repo, 'holdfast.config.yaml'),
      `version: 1\ntargets:\n  - { id: looping, provider: openai-compatible, model: m, baseUrl: "${agent.baseUrl}", maxAttempts: 1, turnCap: 6 }\n`,
    );
    const loopFile = join(out, 'loop.jsonl');
    const loop = await cli(
      repo,
      'run',
      '--mode',
      'loop',
      '--targets',
      'looping',
      '--tasks-dir',
      out,
      '--tasks',
      'price',
      '--node-modules',
      'node_modules',
      '--unsafe-no-isolation',
      '--no-judge',
      '--out',
      loopFile,
    );
    expect(loop.code, loop.err).toBe(0);
    const [looped] = [...reduceRunEvents((await readRunFile(loopFile)).events).rounds];
    for (const result of [looped?.told, looped?.held]) {
      expect(result?.verdict, JSON.stringify(result?.session?.calls.map((call) => [call.tool, call.decision, call.output?.text.slice(-300)]))).toBe('clean');
      expect(result?.session?.calls.find((call) => call.tool === 'run_command')).toMatchObject({ decision: 'applied' });
      expect(result?.session?.taskDone).toMatchObject({ passed: true, exitCode: 0 });
    }
  });

  it('refuses a missing folder, --node-modules without an acceptance check to try, and run --node-modules in agent mode', async () => {
    const repo = shopRepo();
    const missing = await cli(repo, 'tasks', 'new', '--from-commit', 'HEAD', '--out', join(repo, 't'), '--node-modules', 'no-such-folder');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--node-modules .*no-such-folder does not exist; pass a node_modules folder installed for the repository/);
    const pointless = await cli(repo, 'tasks', 'new', '--ticket', 'Add price.', '--out', join(repo, 't'), '--node-modules', 'node_modules');
    expect(pointless.code).toBe(2);
    expect(pointless.err).toMatch(/--node-modules is for trying an acceptance check; give --from-commit, --accept or --accept-test/);
    // Agent mode does not link node_modules into its repositories: refused, never left out unseen.
    writeFileSync(join(repo, 'holdfast.config.yaml'), 'version: 1\ntargets:\n  - { id: agent, provider: agent, command: [node, -e, "0"] }\n');
    for (const mode of ['agent']) {
      const run = await cli(
        repo,
        'run',
        '--mode',
        mode,
        '--targets',
        mode,
        '--unsafe-no-isolation',
        '--node-modules',
        'node_modules',
        '--out',
        join(repo, `${mode}.jsonl`),
      );
      expect(run.code).toBe(2);
      expect(run.err).toMatch(/--node-modules links an installed node_modules into plan-mode sandboxes and loop-mode repositories; agent mode does not/);
    }
  });
});
