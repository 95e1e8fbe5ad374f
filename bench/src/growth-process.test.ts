import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The measuring process runs compiled code (the vitest global setup builds dist/ when it is stale).
const COMPILED = new URL('../dist/growth-process.js', import.meta.url);
const { GROWTH_PROCESS_FLAGS, GrowthProcessError, measureGrowthApart } = (await import(COMPILED.href)) as typeof import('./growth-process.js');

const dir = mkdtempSync(join(tmpdir(), 'holdfast-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bench module as the measuring process loads it: one export that makes the cases. */
function benchModule(source: string): URL {
  const path = join(dir, `cases-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(path, source);
  return pathToFileURL(path);
}

describe('growth measured in a process of its own', () => {
  it('measures each case the module makes, in a node process with one GC thread', async () => {
    const module = benchModule(`
      const sum = (text) => () => { let total = 0; for (let index = 0; index < text.length; index++) total += text.charCodeAt(index); return total; };
      export async function cases() {
        return [
          { name: 'flags ' + process.execArgv.join(' '), small: sum('a'.repeat(1000)), large: sum('a'.repeat(10000)), ratio: 10 },
          { name: 'thirds', small: sum('b'.repeat(1000)), large: sum('b'.repeat(3000)), ratio: 3 },
        ];
      }`);
    const measured = await measureGrowthApart(module, 'cases');
    expect(measured.map(({ name, ratio }) => ({ name, ratio }))).toEqual([
      { name: `flags ${GROWTH_PROCESS_FLAGS.join(' ')}`, ratio: 10 },
      { name: 'thirds', ratio: 3 },
    ]);
    for (const { smallMs, largeMs } of measured) {
      expect(smallMs).toBeGreaterThan(0);
      expect(largeMs).toBeGreaterThan(0);
    }
  });

  it('fails with a named error that says which export was missing', async () => {
    const module = benchModule('export const other = 1;');
    const failure = measureGrowthApart(module, 'cases');
    await expect(failure).rejects.toBeInstanceOf(GrowthProcessError);
    await expect(failure).rejects.toMatchObject({ code: 'E_BENCH_GROWTH_PROCESS', message: expect.stringContaining('exports no function cases') });
  });
});
