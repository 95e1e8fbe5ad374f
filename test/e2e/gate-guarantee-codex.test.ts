import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureAgentClient } from '@holdfast/lab/harness';
import { codexConfig, runScenario } from '@holdfast/lab/test-support';
import { readIfExists } from '@holdfast/lab/test-support';
import { HOLDFAST_BIN, SHIPPED_RULEBOOK, nodeLineTitle, nodeOfLine } from '@holdfast/lab/test-support';
import type { TestNodeLine } from '@holdfast/lab/test-support';
import {
  installOn,
  lineOfSession,
  makeRepo,
  moveHoldfastAway,
  offSwitchFor,
  readHook,
  ROUTES,
  settle,
  testRunThenCommitCases,
  toldText,
  violations,
} from './gate-guarantee-routes.js';
import type { Route } from './gate-guarantee-routes.js';

// Issue 10's guarantee against the real Codex 0.171.0: every route through exec_command, held by a
// repo where only `holdfast install codex` ran and its hooks were trusted as Codex's review records
// trust; a few told (no gate) so the test can fail.
// Issue 44: every other session runs holdfast, its hooks and the client's side on Node 24 (lineOfSession), the
// rest on Node 20, each title naming its line.
async function tryRoute(route: Route, gate: boolean, line: TestNodeLine) {
  const { parent, repo } = makeRepo();
  const node = gate ? await installOn(line, repo, 'codex') : await nodeOfLine(line);
  const base = settle(repo, route.seeded === true);
  const hookBefore = readHook(repo);
  const result = await runScenario({ client: 'codex', repo, steps: [...route.steps, { text: 'Done.' }], node });
  return { result, found: violations(parent, repo, base, hookBefore), told: result.requests.map(toldText).join('\n'), repo };
}

describe('the gate guarantee, Codex real binary', () => {
  it.each(ROUTES.map((route, index) => [nodeLineTitle(lineOfSession(index)), route.name, lineOfSession(index), route] as const))(
    'held on %s: %s',
    async (_title, _name, line, route) => {
      const { result, found, told } = await tryRoute(route, true, line);
      expect(result.run.exitCode, result.explain()).toBe(0);
      expect(found, result.explain()).toEqual([]);
      expect(told, result.explain()).toMatch(route.told);
      expect(told.match(offSwitchFor(route))?.[0], result.explain()).toBeUndefined();
    },
  );

  it.each(
    ROUTES.filter((route) => route.toldVariant === true).map(
      (route, index) => [nodeLineTitle(lineOfSession(index)), route.name, lineOfSession(index), route] as const,
    ),
  )('told (no gate) on %s: %s lands', async (_title, _name, line, route) => {
    const { result, found } = await tryRoute(route, false, line);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(found, result.explain()).not.toEqual([]);
  });

  testRunThenCommitCases('codex');

  it('held on Node 24: a module then its test in one turn both land, and the turn ends', async () => {
    const { repo } = makeRepo();
    const node = await installOn('node-24', repo, 'codex');
    settle(repo, false);
    const module = 'export const add = (a: number, b: number): number => a + b;\n';
    const test = "import { add } from './add';\nif (add(1, 2) !== 3) throw new Error('add');\n";
    const steps = [[{ shell: `printf '%s' '${module}' > src/add.ts` }, { shell: `printf '%s' "${test}" > src/add.test.ts` }], { text: 'Done.' }];
    const result = await runScenario({ client: 'codex', repo, steps, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(readIfExists(repo, 'src/add.ts'), result.explain()).toBe(module);
    expect(readIfExists(repo, 'src/add.test.ts'), result.explain()).toBe(test);
    expect(result.run.report.finalMessage, result.explain()).toBe('Done.');
  });

  it('held on Node 24: with holdfast moved away the hook blocks the call and nothing lands', async () => {
    const { parent, repo } = makeRepo();
    const node = await installOn('node-24', repo, 'codex');
    moveHoldfastAway(repo);
    const base = settle(repo, false);
    const route = ROUTES[0] as Route;
    const result = await runScenario({ client: 'codex', repo, steps: [...route.steps, { text: 'Done.' }], node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(violations(parent, repo, base, undefined), result.explain()).toEqual([]);
    expect(result.requests.map(toldText).join('\n'), result.explain()).toMatch(/holdfast gate: cannot run the hook/);
  });

  it('doctor: says the Codex hook is untrusted before `install codex --trust` (exit 1) and fine after (exit 0)', async () => {
    const { repo } = makeRepo();
    await installOn('node-20', repo, 'codex');
    settle(repo, false);
    const home = mkdtempSync(join(tmpdir(), 'holdfast-codex-doctor-'));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), codexConfig({ baseUrl: 'http://127.0.0.1:9/v1', cwd: repo }));
    const codex = await ensureAgentClient('codex');
    const env = { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: join(home, '.codex'), HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK };
    const run = (...args: string[]) => spawnSync(process.execPath, [HOLDFAST_BIN, ...args, '--codex', codex], { cwd: repo, env, encoding: 'utf8' });
    const before = run('doctor');
    expect(before.status, before.stdout + before.stderr).toBe(1);
    expect(before.stdout + before.stderr).toMatch(/Codex does not trust the hook/);
    const trust = run('install', 'codex', '--trust');
    expect(trust.status, trust.stdout + trust.stderr).toBe(0);
    const after = run('doctor');
    expect(after.status, after.stdout + after.stderr).toBe(0);
    expect(after.stdout).toMatch(/Codex trusts the hook/);
  });
});
