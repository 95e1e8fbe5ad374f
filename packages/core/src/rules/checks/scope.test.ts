import { describe, expect, it } from 'vitest';
import { judge, write } from '../test-support/rulebooks.js';

describe('R2 SCOPE', () => {
  it.each(['src/a.ts', 'src/features/orders/api.ts', './src/a.ts', 'src/a/../b.ts', 'src/.env.example', 'src//x.ts'])('allows a write to %j', async (path) => {
    const [result] = await judge('R2', [write(path)]);
    expect(result).toMatchObject({ rule: 'R2', name: 'SCOPE', actionIndex: 0, ok: true });
  });

  it.each([
    ['docs/adr/0007.md', /outside the allowed paths \(src\/\*\*\)/],
    ['src/../etc/passwd', /resolves to "etc\/passwd"/],
    ['/etc/passwd', /absolute/],
    ['/work/repo/src/a.ts', /absolute/],
    ['C:\\repo\\src\\a.ts', /backslash/],
    ['c:/repo/src/a.ts', /drive letter/],
    ['src\\a.ts', /backslash/],
    ['../outside.ts', /climbs out/],
    ['src/../../outside.ts', /climbs out/],
    ['src/a\u0000.ts', /NUL/],
    ['', /empty/],
    ['src-old/a.ts', /outside/],
    ['SRC/a.ts', /outside/],
    ['Src/a.ts', /outside/],
    ['src', /outside/],
    ['src\uFF0Fa.ts', /looks like a slash/],
    ['src\u2215a.ts', /looks like a slash/],
    ['~/src/a.ts', /home/],
    ['src/', /directory/],
  ])('refuses a write to %j', async (path, detail) => {
    const [result] = await judge('R2', [write(path)]);
    expect(result).toMatchObject({ rule: 'R2', actionIndex: 0, ok: false });
    expect(result?.detail).toMatch(/^R2 SCOPE: write to /);
    expect(result?.detail).toMatch(detail);
  });

  it('judges deletes too, and ignores runs and commits', async () => {
    const results = await judge('R2', [
      { type: 'delete', path: 'package.json' },
      { type: 'run', cmd: 'rm -rf /' },
      { type: 'commit', message: 'x' },
      { type: 'delete', path: 'src/old.ts' },
    ]);
    expect(results.map((result) => [result.actionIndex, result.ok])).toEqual([
      [0, false],
      [3, true],
    ]);
    expect(results[0]?.detail).toBe('R2 SCOPE: delete to "package.json" is outside the allowed paths (src/**).');
  });

  it('compares after Unicode NFC normalisation', async () => {
    const results = await judge('R2', [write('src/cafe\u0301.ts'), write('sr\u0063/x.ts')]);
    expect(results.every((result) => result.ok)).toBe(true);
  });
});
