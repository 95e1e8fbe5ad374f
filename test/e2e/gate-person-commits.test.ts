import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOLDFAST_BIN, runScenario } from '@holdfast/lab/test-support';
import { makeRepo } from './gate-guarantee-routes.js';
import { ensureHookManagers } from '../setup/hook-managers.js';
import type { HookManagerBins } from '../setup/hook-managers.js';

// Issue 41.5: the gate tells the agent from the team. A person's commit after a real Claude Code session
// (2.1.197, scripted model), under husky and under lefthook (real, from npm), with and without --no-verify.

/** The team's rulebook: no console.log under src/ (a content rule) and tests before a commit (an order rule). */
const TEAM_RULEBOOK = [
  'version: 1',
  'name: team',
  'rules:',
  '  - id: R4',
  '    name: NOLOG',
  '    prose: Do not use console.log under src/.',
  '    check:',
  '      kind: forbidden-pattern',
  '      what: a console.log call',
  "      files: ['src/**/*.ts']",
  "      patterns: ['\\bconsole\\s*\\.\\s*log\\b']",
  '  - id: R6',
  '    name: ORDER',
  '    prose: Run npm test before you commit.',
  '    check:',
  '      kind: order',
  "      command: '^npm test$'",
  '      example: npm test',
  '',
].join('\n');

type Manager = 'husky' | 'lefthook';

let bins: HookManagerBins;

beforeAll(async () => {
  bins = await ensureHookManagers();
});

/** The person's environment: no agent marks in it (the test runner's own may carry none either). */
function personEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['HOLDFAST_RULEBOOK', 'CLAUDECODE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'HOLDFAST_EXEC']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('GIT_')) delete env[name];
  return env;
}

function run(repo: string, program: string, args: readonly string[], env: NodeJS.ProcessEnv = personEnv()) {
  const result = spawnSync(program, args, { cwd: repo, env, encoding: 'utf8' });
  return { status: result.status ?? 1, said: `${result.stdout}${result.stderr}` };
}

const holdfast = (repo: string, ...args: string[]) => run(repo, process.execPath, [HOLDFAST_BIN, ...args]);
const git = (repo: string, ...args: string[]) => run(repo, 'git', args);
const head = (repo: string) => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();

/** The manager's own hooks, installed the way a team installs them; each appends to a log when it runs. */
function installManager(manager: Manager, repo: string): void {
  if (manager === 'husky') {
    mkdirSync(join(repo, '.husky'), { recursive: true });
    writeFileSync(join(repo, '.husky', 'pre-commit'), 'echo husky >> .git/manager.log\n');
    expect(run(repo, process.execPath, [bins.husky]).status).toBe(0);
  } else {
    writeFileSync(join(repo, 'lefthook.yml'), 'pre-commit:\n  commands:\n    log:\n      run: echo lefthook >> .git/manager.log\n');
    expect(run(repo, bins.lefthook, ['install']).status).toBe(0);
  }
}

function managerRuns(repo: string): number {
  const log = join(repo, '.git', 'manager.log');
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line !== '').length
    : 0;
}

async function teamDay(manager: Manager) {
  const { repo } = makeRepo();
  mkdirSync(join(repo, 'holdfast'));
  writeFileSync(join(repo, 'holdfast', 'rulebook.yaml'), TEAM_RULEBOOK);
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'team', private: true, scripts: { test: 'node -e 0' } })}\n`);
  installManager(manager, repo);
  const installed = holdfast(repo, 'install', 'claude-code', 'git');
  expect(installed.status, installed.said).toBe(0);
  expect(git(repo, '-c', 'core.hooksPath=/dev/null', 'add', '-A').status).toBe(0);
  expect(git(repo, '-c', 'core.hooksPath=/dev/null', 'commit', '-qm', 'team setup').status).toBe(0);

  // One agent session in the clone: a tool call, then the turn ends.
  const session = await runScenario({ client: 'claude-code', repo, steps: [{ shell: 'ls src' }, { text: 'Done.' }] });
  expect(session.run.exitCode, session.explain()).toBe(0);
  expect(existsSync(join(repo, '.holdfast', 'sessions')), session.explain()).toBe(true);

  // A person, by hand: runs the tests or not, edits the README, commits with the hooks on.
  writeFileSync(join(repo, 'README.md'), 'Written by a person.\n');
  git(repo, 'add', 'README.md');
  const commit = git(repo, 'commit', '-qm', 'readme');
  const managerBefore = managerRuns(repo);

  // The hook manager regenerates its hooks (husky on `npm install`, `lefthook install`): doctor tells what still holds.
  if (manager === 'husky') expect(run(repo, process.execPath, [bins.husky]).status).toBe(0);
  else expect(run(repo, bins.lefthook, ['install', '--force']).status).toBe(0);
  const doctorAfterRegenerate = holdfast(repo, 'doctor').said;
  const reinstalled = holdfast(repo, 'install', 'git');
  expect(reinstalled.status, reinstalled.said).toBe(0);

  // After the reinstall (which rewrote the guarded baseline): a person's commit, hooks on.
  writeFileSync(join(repo, 'README.md'), 'Written by a person, again.\n');
  const again = git(repo, 'commit', '-qam', 'readme again');
  const managerRanAgain = managerRuns(repo) > managerBefore;

  // A person's --no-verify with a console.log (their flaky hook, say): honoured by default.
  writeFileSync(join(repo, 'src', 'debug.ts'), 'export const debug = () => console.log(1);\n');
  git(repo, 'add', 'src/debug.ts');
  const countBeforeSkip = managerRuns(repo);
  const skipped = git(repo, 'commit', '-q', '--no-verify', '-m', 'skip hooks');
  const skippedRanManager = managerRuns(repo) > countBeforeSkip;

  // The same two commits from an agent's shell: judged by every rule.
  writeFileSync(join(repo, 'src', 'debug.ts'), 'export const debug = () => console.log(2);\n');
  git(repo, 'add', 'src/debug.ts');
  const beforeAgent = head(repo);
  const agentShell = { ...personEnv(), CLAUDECODE: '1' };
  const agentNoVerify = run(repo, 'git', ['commit', '-q', '--no-verify', '-m', 'agent skips hooks'], agentShell);
  const agentNoVerifyMoved = head(repo) !== beforeAgent;
  writeFileSync(join(repo, 'src', 'debug.ts'), 'export const debug = () => 3;\n');
  git(repo, 'add', 'src/debug.ts');
  const agentUntested = run(repo, 'git', ['commit', '-q', '-m', 'agent, untested'], agentShell);

  // Uninstall: holdfast's state, its exclude lines and its hook blocks go; the manager's hooks stay and still run.
  const uninstalled = holdfast(repo, 'uninstall', 'claude-code', 'git');
  const hooksFolder = join(repo, run(repo, 'git', ['rev-parse', '--git-path', 'hooks']).said.trim());
  const hookTexts = ['pre-commit', 'reference-transaction']
    .map((name) => join(hooksFolder, name))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path, 'utf8'));
  writeFileSync(join(repo, 'README.md'), 'Written by a person, after uninstall.\n');
  const countBeforeLast = managerRuns(repo);
  const afterUninstall = git(repo, 'commit', '-qam', 'readme after uninstall');
  const after = {
    status: uninstalled.status,
    stateLeft: existsSync(join(repo, '.holdfast')),
    claudeLeft: existsSync(join(repo, '.claude', 'settings.json')) && readFileSync(join(repo, '.claude', 'settings.json'), 'utf8').includes('holdfast'),
    excludeMentions: readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8').includes('holdfast'),
    // The block's marker, not the word: a manager's hook names its own binary, whose cache path holds "holdfast".
    hooksMention: hookTexts.some((text) => text.includes('>>> holdfast gate >>>')),
    commit: afterUninstall,
    managerRan: managerRuns(repo) > countBeforeLast,
  };
  return { commit, doctorAfterRegenerate, again, managerRanAgain, skipped, skippedRanManager, agentNoVerify, agentNoVerifyMoved, agentUntested, after, repo };
}

describe.each(['husky', 'lefthook'] as const)("a person's commit after an agent session, under %s", (manager) => {
  it('is judged by the content rules only; --no-verify is honoured outside an agent call; doctor says which hooks still hold', async () => {
    const day = await teamDay(manager);
    expect(day.commit.status, day.commit.said).toBe(0);
    expect(day.commit.said).toMatch(/R6 ORDER not judged: this commit was made outside any agent tool call/);

    expect(day.doctorAfterRegenerate).not.toMatch(/no holdfast gate is installed/);
    expect(day.doctorAfterRegenerate).toMatch(/pre-commit hook git runs .* has no holdfast gate.*the reference-transaction hook still holds/);
    expect(day.doctorAfterRegenerate).toMatch(/reference-transaction: holdfast runs first/);

    expect(day.again.status, day.again.said).toBe(0);
    expect(day.again.said).not.toMatch(/guarded-baseline/);
    expect(day.again.said).toMatch(/R6 ORDER not judged: this commit was made outside any agent tool call/);
    expect(day.managerRanAgain).toBe(true);

    expect(day.skipped.status, day.skipped.said).toBe(0);
    expect(day.skipped.said).toMatch(/a person's `git commit --no-verify` .* is let through unjudged: the rulebook's git.personNoVerify is honour/);
    expect(day.skippedRanManager).toBe(false);

    expect(day.agentNoVerify.status).not.toBe(0);
    expect(day.agentNoVerify.said).toMatch(/R4 NOLOG/);
    expect(day.agentNoVerifyMoved).toBe(false);
    expect(day.agentUntested.status).not.toBe(0);
    expect(day.agentUntested.said).toMatch(/R6 ORDER/);
    expect(day.agentUntested.said).not.toMatch(/guarded-baseline/);

    expect(day.after, JSON.stringify(day.after)).toMatchObject({
      status: 0,
      stateLeft: false,
      claudeLeft: false,
      excludeMentions: false,
      hooksMention: false,
      commit: { status: 0 },
      managerRan: true,
    });
  }, 300_000);
});
