import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { readIfExists } from '@holdfast/lab/test-support';
import { nodeLineTitle, nodeOfLine } from '@holdfast/lab/test-support';
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

// Issue 10's guarantee against the real Claude Code 2.1.197: every route through the Bash tool, held
// by a repo where only `holdfast install claude-code` ran; a few told (no gate) so the test can fail.
// Issue 44: every other session runs holdfast, its hooks and the client's side on Node 24 (lineOfSession), the
// rest on Node 20, each title naming its line.
async function tryRoute(route: Route, gate: boolean, line: TestNodeLine) {
  const { parent, repo } = makeRepo();
  const node = gate ? await installOn(line, repo, 'claude-code') : await nodeOfLine(line);
  const base = settle(repo, route.seeded === true);
  const hookBefore = readHook(repo);
  const result = await runScenario({ client: 'claude-code', repo, steps: [...route.steps, { text: 'Done.' }], node });
  return { result, found: violations(parent, repo, base, hookBefore), told: result.requests.map(toldText).join('\n'), repo };
}

describe('the gate guarantee, Claude Code real binary', () => {
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

  testRunThenCommitCases('claude-code');

  it('held on Node 24: a module then its test in one turn both land, and the turn ends', async () => {
    const { repo } = makeRepo();
    const node = await installOn('node-24', repo, 'claude-code');
    settle(repo, false);
    const module = 'export const add = (a: number, b: number): number => a + b;\n';
    const test = "import { add } from './add';\nif (add(1, 2) !== 3) throw new Error('add');\n";
    const steps = [[{ shell: `printf '%s' '${module}' > src/add.ts` }, { shell: `printf '%s' "${test}" > src/add.test.ts` }], { text: 'Done.' }];
    const result = await runScenario({ client: 'claude-code', repo, steps, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(readIfExists(repo, 'src/add.ts'), result.explain()).toBe(module);
    expect(readIfExists(repo, 'src/add.test.ts'), result.explain()).toBe(test);
    expect(result.run.report.finalMessage, result.explain()).toBe('Done.');
  });

  it('held on Node 20: a 40 MB Write is refused within the hook deadline with the reason, and never lands (issue 46)', async () => {
    const { repo } = makeRepo();
    const node = await installOn('node-20', repo, 'claude-code');
    settle(repo, false);
    // A minified bundle with a console.log at its end: before, the hook parsed it past Claude Code's 30 s and the write was applied.
    const bundle = `${'var a=1;'.repeat(5 * 1024 * 1024)}console.log(a);\n`;
    const result = await runScenario({
      client: 'claude-code',
      repo,
      steps: [{ writeFile: { path: 'src/bundle.js', content: bundle } }, { text: 'Done.' }],
      node,
    });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(existsSync(join(repo, 'src', 'bundle.js')), result.explain()).toBe(false);
    const refusal = result.turns.flatMap((turn) => turn.toolResults).find((toolResult) => toolResult.isError);
    expect(refusal?.text, result.explain()).toMatch(/over the gate's limit of 4\.0 MB for one call/);
    expect(result.run.stderr, result.explain()).not.toMatch(/Slow PreToolUse hook/);
  });

  it('held on Node 24: with holdfast moved away the hook blocks the call and nothing lands', async () => {
    const { parent, repo } = makeRepo();
    const node = await installOn('node-24', repo, 'claude-code');
    moveHoldfastAway(repo);
    const base = settle(repo, false);
    const route = ROUTES[0] as Route;
    const result = await runScenario({ client: 'claude-code', repo, steps: [...route.steps, { text: 'Done.' }], node });
    expect(violations(parent, repo, base, undefined), result.explain()).toEqual([]);
    expect(result.requests.map(toldText).join('\n'), result.explain()).toMatch(/holdfast gate: cannot run the hook/);
  });
});
