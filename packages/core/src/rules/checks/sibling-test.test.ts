import { describe, expect, it } from 'vitest';
import { judge, write } from '../test-support/rulebooks.js';
import { testGlobs } from './sibling-test.js';

const existing = ['src/lib/http.ts', 'src/features/orders.ts', 'src/features/orders.test.ts'];

describe('R3 TESTS', () => {
  it('does not ask for a test when an existing module is edited (the seed false positive)', async () => {
    expect(await judge('R3', [write('src/lib/http.ts')], existing)).toEqual([]);
    expect(await judge('R3', [write('./src/lib/../lib/http.ts')], existing)).toEqual([]);
  });

  it('refuses a new module without a test, naming the test to write', async () => {
    expect(await judge('R3', [write('src/features/refunds.ts')], existing)).toEqual([
      {
        rule: 'R3',
        name: 'TESTS',
        actionIndex: 0,
        ok: false,
        detail: 'R3 TESTS: write to "src/features/refunds.ts" creates a new module with no test; write "src/features/refunds.test.ts" in the same change.',
      },
    ]);
  });

  it.each([
    ['test after the module', ['src/features/refunds.ts', 'src/features/refunds.test.ts']],
    ['test before the module', ['src/features/refunds.test.ts', 'src/features/refunds.ts']],
    ['tsx module with tsx test', ['src/components/Badge.tsx', 'src/components/Badge.test.tsx']],
    ['tsx module with ts test', ['src/components/Badge.tsx', 'src/components/Badge.test.ts']],
  ])('accepts a new module with its sibling test (%s)', async (_, paths) => {
    const results = await judge(
      'R3',
      paths.map((path) => write(path)),
      existing,
    );
    expect(results).toHaveLength(1);
    expect(results[0]?.ok).toBe(true);
  });

  it('does not accept a test in another folder or for another stem', async () => {
    for (const test of ['src/refunds.test.ts', 'src/features/refund.test.ts', 'test/features/refunds.test.ts']) {
      const results = await judge('R3', [write('src/features/refunds.ts'), write(test)], existing);
      expect(results.filter((result) => !result.ok)).toHaveLength(1);
    }
  });

  it('counts a module written twice as one new module, judged at its first write', async () => {
    const results = await judge('R3', [write('src/features/refunds.ts'), write('src/features/refunds.ts')], existing);
    expect(results.map((result) => [result.actionIndex, result.ok])).toEqual([[0, false]]);
  });

  it('does not count a test the round deletes again', async () => {
    const results = await judge(
      'R3',
      [write('src/features/refunds.ts'), write('src/features/refunds.test.ts'), { type: 'delete', path: 'src/features/refunds.test.ts' }],
      existing,
    );
    expect(results.map((result) => result.ok)).toEqual([false]);
  });

  it('does not ask for a test for a module the round deletes again', async () => {
    expect(await judge('R3', [write('src/features/tmp.ts'), { type: 'delete', path: 'src/features/tmp.ts' }], existing)).toEqual([]);
  });

  it.each(['src/types/global.d.ts', 'src/features/refunds.test.ts', 'src/a.spec.ts', 'src/styles.css', 'docs/new.ts', 'src/data.json'])(
    'exempts %j',
    async (path) => {
      expect(await judge('R3', [write(path)], existing)).toEqual([]);
    },
  );
});

describe('testGlobs', () => {
  it('fills {dir}, {stem} and {ext} and escapes glob characters of the path', () => {
    expect(testGlobs(['{dir}/{stem}.test.{ext}', '{dir}/__tests__/{stem}.*'], 'src/[id]/page(1).tsx')).toEqual([
      'src/\\[id\\]/page\\(1\\).test.tsx',
      'src/\\[id\\]/__tests__/page\\(1\\).*',
    ]);
  });
});
