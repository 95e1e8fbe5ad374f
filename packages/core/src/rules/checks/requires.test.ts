import { describe, expect, it } from 'vitest';
import type { ObservedRun } from '../../contract/index.js';
import { checkActions } from '../check-actions.js';
import { commit, judgeWith, ruleWith, run } from '../test-support/kind-rulebook.js';
import { judge, write } from '../test-support/rulebooks.js';

const rulebook = ruleWith(`
kind: requires
commands:
  - { run: ["pnpm test", "pnpm run test"], name: the tests }
  - { run: ["pnpm type-check"] }
`);

async function commitVerdict(...actions: Parameters<typeof judgeWith>[1]) {
  const results = await judgeWith(rulebook, [...actions, commit]);
  return results.find((result) => result.actionIndex === actions.length);
}

describe('requires check', () => {
  it('passes a commit after every required command ran after the last change', async () => {
    const result = await commitVerdict(write('src/a.ts'), run('pnpm test'), run('pnpm type-check'));
    expect(result).toMatchObject({ ok: true });
    expect(result?.detail).toMatch(/follows the tests \(action 1\), `pnpm type-check` \(action 2\)/);
  });

  it.each([
    [[run('pnpm test')], /`pnpm type-check` has not run before it/],
    [[run('pnpm test'), run('pnpm type-check'), write('src/a.ts')], /has not run since the last change \(action 2\)/],
    [[run('pnpm test --dir elsewhere'), run('pnpm type-check')], /did not count .*runs elsewhere \(--dir\)/],
    [[run('pnpm -C packages/a test'), run('pnpm type-check')], /runs elsewhere \(-C\)/],
    [[run('cd packages/a && pnpm test'), run('pnpm type-check')], /runs in packages\/a, not in the project root/],
    [[run('cd /tmp/other && pnpm test'), run('pnpm type-check')], /runs in \/tmp\/other/],
    [[run('pnpm test || true'), run('pnpm type-check')], /does not decide the exit code/],
    [[run('pnpm test; echo done'), run('pnpm type-check')], /does not decide the exit code/],
    [[run('echo pnpm test'), run('pnpm type-check')], /the tests has not run before it/],
  ])('refuses a commit after %j', async (actions, detail) => {
    const result = await commitVerdict(...actions);
    expect(result).toMatchObject({ ok: false });
    expect(result?.detail).toMatch(detail);
  });

  it('counts runs through wrappers and an && chain in the root', async () => {
    expect(await commitVerdict(run('env CI=1 pnpm run test && pnpm type-check'))).toMatchObject({ ok: true });
    expect(await commitVerdict(run("sh -c 'pnpm test'"), run('cd . && pnpm type-check'))).toMatchObject({ ok: true });
  });

  it('counts an executed run only when it exited 0, and a later failure undoes a pass', async () => {
    const actions = [write('src/a.ts'), run('pnpm test'), run('pnpm type-check'), run('pnpm test'), commit];
    const observed = new Map<number, ObservedRun>([
      [1, { passed: true, ending: 'exit code 0' }],
      [2, { passed: true, ending: 'exit code 0' }],
      [3, { passed: false, ending: 'exit code 1' }],
    ]);
    const [result] = (await checkActions(actions, [], rulebook, observed)).filter((entry) => entry.actionIndex === 4);
    expect(result).toMatchObject({ ok: false });
    expect(result?.detail).toMatch(/the tests ran \(action 3\) but did not pass: exit code 1/);
    const passing = new Map(observed).set(3, { passed: true, ending: 'exit code 0' });
    const [clean] = (await checkActions(actions, [], rulebook, passing)).filter((entry) => entry.actionIndex === 4);
    expect(clean?.detail).toMatch(/action 3, passed/);
  });

  it('judges nothing in a round without a commit', async () => {
    expect(await judgeWith(rulebook, [write('src/a.ts'), run('pnpm test')])).toEqual([]);
  });
});

describe('R6 ORDER gains the same rules', () => {
  it.each(['npm test --prefix elsewhere', 'npm test --prefix=elsewhere', 'pnpm test --dir ../x', 'yarn test --cwd packages/a', 'npm test -C sub'])(
    'does not count %j as the tests ran',
    async (cmd) => {
      const results = await judge('R6', [write('src/a.ts'), run(cmd), commit]);
      expect(results[0]).toMatchObject({ ok: false, actionIndex: 2 });
      expect(results[0]?.detail).toMatch(/does not count .*runs elsewhere/);
    },
  );

  it('still counts the tests run in the root', async () => {
    expect((await judge('R6', [write('src/a.ts'), run('npm test'), commit]))[0]).toMatchObject({ ok: true });
    expect((await judge('R6', [write('src/a.ts'), run('npm test -- --reporter=dot'), commit]))[0]).toMatchObject({ ok: true });
  });
});
