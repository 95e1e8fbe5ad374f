import { describe, expect, it } from 'vitest';
import type { Action } from '../../contract/index.js';
import type { ObservedRun } from '../../contract/index.js';
import { checkActions } from '../check-actions.js';
import { observedRuns } from '../observed-runs.js';
import { judge, onlyRules, write } from '../test-support/rulebooks.js';

const passed: ObservedRun = { passed: true, ending: 'exit code 0' };
const failed: ObservedRun = { passed: false, ending: 'exit code 1' };

function judgeObserved(actions: readonly Action[], observed: ReadonlyMap<number, ObservedRun>) {
  return checkActions(actions, [], onlyRules('R6'), observed);
}

const run = (cmd: string): Action => ({ type: 'run', cmd });
const commit: Action = { type: 'commit', message: 'feat: orders' };

describe('R6 ORDER', () => {
  it('needs the test command pattern only for a round that commits (a pattern RE2 refuses shows when)', async () => {
    const book = onlyRules('R6');
    const rule = book.rules[0]!;
    if (rule.check.kind !== 'order') throw new Error('R6 is the order rule');
    const refused = { ...book, rules: [{ ...rule, check: { ...rule.check, command: '(?=npm) test' } }] };
    expect(await checkActions([write('src/a.ts'), run('npm test')], [], refused)).toEqual([]);
    expect(await checkActions([write('src/a.ts'), run('npm test'), commit], [], refused)).toEqual([
      expect.objectContaining({ ok: false, detail: expect.stringMatching(/cannot be judged: the test command pattern/) }),
    ]);
  });

  it.each(['npm test', 'npm run test', 'npx vitest run', 'pnpm test', 'yarn test', '  npm test -- --reporter=dot', 'npx vitest run src/orders'])(
    'accepts %j between the last write and the commit',
    async (cmd) => {
      const results = await judge('R6', [write('src/a.ts'), run(cmd), commit]);
      expect(results).toEqual([expect.objectContaining({ actionIndex: 2, ok: true })]);
    },
  );

  it.each([
    'npm test || true',
    'npm test; git push',
    'npm test && rm -rf dist',
    'echo npm test',
    'npm install',
    'npm test | tee log',
    'npm test\nrm -rf /',
    'npm tests',
    'npm test `x`',
  ])('does not count %j as the test run', async (cmd) => {
    const results = await judge('R6', [write('src/a.ts'), run(cmd), commit]);
    expect(results).toEqual([expect.objectContaining({ actionIndex: 2, ok: false })]);
  });

  it('refuses a commit whose test run came before the last write, naming both', async () => {
    const results = await judge('R6', [write('src/a.ts'), run('npm test'), write('src/b.ts'), commit]);
    expect(results).toEqual([
      {
        rule: 'R6',
        name: 'ORDER',
        actionIndex: 3,
        ok: false,
        detail:
          'R6 ORDER: commit (action 3) comes after the last change (action 2) with no test run in between; run npm test after your last change and before committing.',
      },
    ]);
  });

  it('counts a delete as a change', async () => {
    const results = await judge('R6', [run('npm test'), { type: 'delete', path: 'src/a.ts' }, commit]);
    expect(results[0]?.ok).toBe(false);
  });

  it('judges every commit on its own', async () => {
    const results = await judge('R6', [write('src/a.ts'), run('npm test'), commit, write('src/b.ts'), commit]);
    expect(results.map((result) => [result.actionIndex, result.ok])).toEqual([
      [2, true],
      [4, false],
    ]);
  });

  it('requires a test run even before a commit with no change before it', async () => {
    expect((await judge('R6', [commit]))[0]).toMatchObject({ ok: false, detail: expect.stringMatching(/no test run before it/) });
    expect((await judge('R6', [run('npm test'), commit]))[0]?.ok).toBe(true);
  });

  it('judges nothing when the round does not commit', async () => {
    expect(await judge('R6', [write('src/a.ts')])).toEqual([]);
  });

  describe('with observed outcomes (a sandbox ran the commands)', () => {
    it('counts a test run that passed, and says so', async () => {
      const results = await judgeObserved([write('src/a.ts'), run('npm test'), commit], new Map([[1, passed]]));
      expect(results).toEqual([expect.objectContaining({ ok: true, detail: 'R6 ORDER: commit (action 2) follows a test run (action 1) that passed.' })]);
    });

    it('refuses a commit after a failing npm test, naming the run and how it ended', async () => {
      const results = await judgeObserved([write('src/a.ts'), run('npm test'), commit], new Map([[1, failed]]));
      expect(results).toEqual([
        expect.objectContaining({
          ok: false,
          detail:
            'R6 ORDER: commit (action 2) follows a test run (action 1) that did not pass: exit code 1. A test run counts only when it passes; fix what fails, run npm test again, then commit.',
        }),
      ]);
    });

    it('the last test run decides: fail then pass is fine, pass then fail is not', async () => {
      const actions = [write('src/a.ts'), run('npm test'), run('npm test'), commit];
      expect(
        (
          await judgeObserved(
            actions,
            new Map([
              [1, failed],
              [2, passed],
            ]),
          )
        )[0]?.ok,
      ).toBe(true);
      expect(
        (
          await judgeObserved(
            actions,
            new Map([
              [1, passed],
              [2, failed],
            ]),
          )
        )[0]?.ok,
      ).toBe(false);
    });

    it('a failing run before the last change is the usual "no test run after the change"', async () => {
      const results = await judgeObserved([run('npm test'), write('src/a.ts'), commit], new Map([[0, failed]]));
      expect(results[0]?.detail).toMatch(/comes after the last change \(action 1\)/);
    });

    it('reads outcomes from sandbox records: only an executed run that exited 0 passed', () => {
      const observed = observedRuns([
        { index: 0, cmd: 'npm test', executed: true, exitCode: 0, timedOut: false },
        { index: 1, cmd: 'npm test', executed: true, exitCode: 1, timedOut: false },
        { index: 2, cmd: 'npm test', executed: true, signal: 'SIGKILL', timedOut: true },
        { index: 3, cmd: 'npm test', executed: false, reason: 'Not executed: it is off the allowlist.' },
        { index: 4, cmd: 'npm test', executed: true, signal: 'SIGSEGV', timedOut: false },
      ]);
      expect([...observed.values()].map((run) => run.passed)).toEqual([true, false, false, false, false]);
      expect(observed.get(2)?.ending).toBe('it was killed at the timeout');
      expect(observed.get(3)?.ending).toBe('it was not executed (it is off the allowlist)');
      expect(observed.get(4)?.ending).toBe('it ended by signal SIGSEGV');
    });

    it('a model cannot claim an outcome: an exitCode field in its action is ignored', async () => {
      const claimed = { type: 'run', cmd: 'npm test', exitCode: 0 } as unknown as Action;
      const results = await judgeObserved([write('src/a.ts'), claimed, commit], new Map([[1, failed]]));
      expect(results[0]?.ok).toBe(false);
    });
  });
});
