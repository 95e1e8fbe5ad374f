import { describe, expect, it } from 'vitest';
import { judge, write } from '../test-support/rulebooks.js';

describe('R4 NOLOG', () => {
  it('names the line and an excerpt of the console.log', async () => {
    const content = 'export function total(orders) {\n  const sum = orders.length;\n  console.log("total", sum);\n  return sum;\n}\n';
    expect(await judge('R4', [write('src/features/orders.ts', content)])).toEqual([
      {
        rule: 'R4',
        name: 'NOLOG',
        actionIndex: 0,
        ok: false,
        detail: 'R4 NOLOG: write to "src/features/orders.ts" adds a console.log call at line 3 (`console.log("total", sum);`).',
      },
    ]);
  });

  it.each(['console.log(x)', 'console . log (x)', 'const log = console.log;', 'window.console.log(1)', 'console\n  .log("multi-line")'])(
    'finds %j',
    async (content) => {
      expect((await judge('R4', [write('src/a.ts', content)]))[0]?.ok).toBe(false);
    },
  );

  it.each(['console.error(x)', 'logger.log(x)', 'const consoleLog = 1;', 'myconsole.log(1)', 'console.logger(1)'])('lets %j through', async (content) => {
    expect((await judge('R4', [write('src/a.ts', content)]))[0]?.ok).toBe(true);
  });

  it('checks test files too, and only source files under src/', async () => {
    const results = await judge('R4', [
      write('src/a.test.ts', 'console.log(1)'),
      write('scripts/debug.ts', 'console.log(1)'),
      write('src/README.md', 'console.log(1)'),
      write('src/b.mjs', 'console.log(1)'),
    ]);
    expect(results.map((result) => [result.actionIndex, result.ok])).toEqual([
      [0, false],
      [3, false],
    ]);
  });

  it('shortens a long line in the excerpt', async () => {
    const [result] = await judge('R4', [write('src/a.ts', `console.log(${'"x",'.repeat(100)})`)]);
    expect(result?.detail.length).toBeLessThan(200);
    expect(result?.detail).toContain('…');
  });
});
