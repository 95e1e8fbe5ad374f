import { describe, expect, it } from 'vitest';
import type { Action } from '../../contract/index.js';
import { judge, write } from '../test-support/rulebooks.js';

const run = (cmd: string): Action => ({ type: 'run', cmd });
const commit: Action = { type: 'commit', message: 'feat: orders' };

describe('R6 ORDER', () => {
  it.each(['npm test', 'npm run test', 'npx vitest run', 'pnpm test', 'yarn test', '  npm test -- --reporter=dot', 'npx vitest run src/orders'])(
    'accepts %j between the last write and the commit',
    async (cmd) => {
      const results = await judge('R6', [write('src/a.ts'), run(cmd), commit]);
      expect(results).toEqual([expect.objectContaining({ actionIndex: 2, ok: true })]);
    },
  );

  it.each(['npm test || true', 'npm test; git push', 'npm test && rm -rf dist', 'echo npm test', 'npm install', 'npm test | tee log', 'npm test\nrm -rf /', 'npm tests', 'npm test `x`'])(
    'does not count %j as the test run',
    async (cmd) => {
      const results = await judge('R6', [write('src/a.ts'), run(cmd), commit]);
      expect(results).toEqual([expect.objectContaining({ actionIndex: 2, ok: false })]);
    },
  );

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
});
