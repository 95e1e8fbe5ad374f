import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { claude, claudeBashPassed } from '@holdfast/gate/test-support';

// Issue 46: the after-call hook killed (kill -9) in the middle of its check, as a client's timeout or
// a person would; the bundled hook, as Claude Code starts it. The call's violation must not outlive
// the next event.
const ENTRY = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));

/** A custom check that, while a flag file exists, says it started and waits: it holds the after-call hook mid-check. */
function holdingCheck(flag: string, started: string): string {
  return [
    "import { existsSync, writeFileSync } from 'node:fs';",
    'export function check(round) {',
    `  if (existsSync(${JSON.stringify(flag)})) {`,
    `    writeFileSync(${JSON.stringify(started)}, '');`,
    '    const pause = new Int32Array(new SharedArrayBuffer(4));',
    `    while (existsSync(${JSON.stringify(flag)})) Atomics.wait(pause, 0, 0, 20);`,
    '  }',
    "  return round.actions.map((action) => ({ actionIndex: action.index, ok: true, detail: 'held' }));",
    '}',
    '',
  ].join('\n');
}

function repository(): { root: string; flag: string; started: string } {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-unfinished-'));
  const aside = mkdtempSync(join(tmpdir(), 'holdfast-e2e-unfinished-flags-'));
  const flag = join(aside, 'hold');
  const started = join(aside, 'started');
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'checks'));
  writeFileSync(join(root, 'checks', 'hold.mjs'), holdingCheck(flag, started));
  writeFileSync(
    join(root, 'rulebook.yaml'),
    [
      'version: 1',
      'rules:',
      '  - id: R4',
      '    name: NOLOG',
      '    prose: No console.log.',
      '    check:',
      '      kind: forbidden-pattern',
      '      what: a console.log call',
      "      files: ['src/**']",
      "      patterns: ['console\\.log']",
      '  - id: X1',
      '    name: HOLD',
      '    prose: A check that waits while the test holds it.',
      '    check:',
      '      kind: custom',
      '      module: checks/hold.mjs',
      '      timeoutMs: 60000',
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'src', 'app.ts'), 'export const app = 1;\n');
  mkdirSync(join(root, 'scripts'));
  writeFileSync(
    join(root, 'scripts', 'gen.mjs'),
    "import { writeFileSync } from 'node:fs';\nwriteFileSync('src/gen.ts', 'export const gen = 1;\\n' + ['console', 'log'].join('.') + '(gen);\\n');\n",
  );
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'start');
  return { root, flag, started };
}

interface Hook {
  readonly pid: number;
  readonly done: Promise<{ code: number | null; out: string }>;
}

function startHook(root: string, event: string): Hook {
  const child = spawn(process.execPath, [ENTRY, 'claude-code', '--rulebook', 'rulebook.yaml'], { cwd: root, env: { PATH: process.env.PATH ?? '' } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  child.stdin.end(event);
  return { pid: child.pid ?? -1, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, out }))) };
}

const withId = (event: string, id: string) => JSON.stringify({ ...(JSON.parse(event) as object), tool_use_id: id });

/** A generator whose output the shell analysis cannot see before it runs, as a build step's. */
const GEN = 'node scripts/gen.mjs';

/** The call ran, and its after-call hook was killed while its check ran. */
async function killedMidCheck(): Promise<string> {
  const { root, flag, started } = repository();
  const pre = await startHook(root, withId(claude.bash(root, 'k', GEN), 'toolu_gen')).done;
  expect(pre.out).not.toMatch(/"deny"/);
  execFileSync('sh', ['-c', GEN], { cwd: root });
  writeFileSync(flag, '');
  const post = startHook(root, withId(claudeBashPassed(root, 'k', GEN), 'toolu_gen'));
  // Wait for the state the kill needs: the check has started (no clock involved).
  await vi.waitFor(() => expect(existsSync(started)).toBe(true), { timeout: 2_147_483_647, interval: 20 });
  process.kill(post.pid, 'SIGKILL');
  rmSync(flag);
  expect((await post.done).code).toBe(null);
  expect(readFileSync(join(root, 'src', 'gen.ts'), 'utf8')).toContain('console.log');
  return root;
}

describe('an after-call hook killed in the middle of its check (issue 46)', { timeout: 600_000 }, () => {
  it("is judged at the session's next call: the violation is put back, and that call is refused until it is run again", async () => {
    const root = await killedMidCheck();
    const next = await startHook(root, withId(claude.write(root, 'k', 'src/other.ts', 'export const other = 1;\n'), 'toolu_next')).done;
    expect(next.out).toMatch(/"permissionDecision":"deny"/);
    expect(next.out).toMatch(/did not finish.*src\/gen\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'gen.ts'))).toBe(false);
    const again = await startHook(root, withId(claude.write(root, 'k', 'src/other.ts', 'export const other = 1;\n'), 'toolu_next')).done;
    expect(again.out).not.toMatch(/"deny"/);
  });

  it('is judged before the turn ends: Stop puts the violation back and holds the turn', async () => {
    const root = await killedMidCheck();
    const stop = JSON.stringify({ session_id: 'k', transcript_path: null, cwd: root, hook_event_name: 'Stop', stop_hook_active: false });
    const held = await startHook(root, stop).done;
    expect(held.out).toMatch(/"decision":"block"/);
    expect(held.out).toMatch(/did not finish/);
    expect(existsSync(join(root, 'src', 'gen.ts'))).toBe(false);
  });

  it('is judged by the git hooks before they judge a commit: the violation is put back and the commit refused with the reason', async () => {
    const root = await killedMidCheck();
    const { commit, head } = gitHooks(root, ['pre-commit']);
    const before = head();
    const refused = commit('-m', 'gen');
    expect(refused.status).toBe(1);
    expect(refused.said).toMatch(/earlier command of an agent session did not finish[\s\S]*src\/gen\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(refused.said).toMatch(/holdfast: commit refused: it was made on changes the gate had not judged yet/);
    expect(existsSync(join(root, 'src', 'gen.ts'))).toBe(false);
    expect(head()).toBe(before);
    // The call is finished: the next commit is judged as any (what is still staged is refused by the rule itself).
    const again = commit('-m', 'gen again');
    expect(again.said).not.toMatch(/did not finish/);
    expect(head()).toBe(before);
  });

  it('is judged by the reference-transaction hook when the commit skips pre-commit (git commit --no-verify)', async () => {
    const root = await killedMidCheck();
    const { commit, head } = gitHooks(root, ['reference-transaction']);
    const before = head();
    const refused = commit('--no-verify', '-m', 'gen');
    expect(refused.status).not.toBe(0);
    expect(refused.said).toMatch(/did not finish[\s\S]*src\/gen\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(refused.said).toMatch(/holdfast: ref update refused: it was made on changes the gate had not judged yet/);
    expect(existsSync(join(root, 'src', 'gen.ts'))).toBe(false);
    expect(head()).toBe(before);
  });
});

/** The git hooks as `holdfast install git` runs them (the bundled entry), and a commit of everything in the work tree. */
function gitHooks(root: string, which: readonly ('pre-commit' | 'reference-transaction')[]) {
  const hooks = join(root, '.git', 'hooks');
  mkdirSync(hooks, { recursive: true });
  const launch = (extra: string) => `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(ENTRY)} git --rulebook rulebook.yaml${extra}\n`;
  for (const hook of which) {
    const path = join(hooks, hook);
    writeFileSync(path, hook === 'pre-commit' ? `#!/bin/sh\n${launch('')}` : `#!/bin/sh\n[ "$1" = prepared ] || exit 0\n${launch(' reference-transaction')}`);
    chmodSync(path, 0o755);
  }
  const env = { PATH: process.env.PATH ?? '', HOME: root };
  const commit = (...args: string[]) => {
    execFileSync('git', ['add', '-A'], { cwd: root, env });
    const result = spawnSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-q', ...args], { cwd: root, env, encoding: 'utf8' });
    return { status: result.status, said: `${result.stdout}${result.stderr}` };
  };
  const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, env, encoding: 'utf8' }).trim();
  return { commit, head };
}
