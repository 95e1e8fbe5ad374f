import { describe, expect, it } from 'vitest';
import { RulebookError } from '../rulebook-error.js';
import { judgeWith, ruleWith } from '../test-support/kind-rulebook.js';
import { write } from '../test-support/rulebooks.js';

const deny = ruleWith(`
kind: paths
deny: ["migrations/**", "**/package-lock.json", ".github/workflows/**", "src/generated/**"]
what: a protected path
`);
const both = ruleWith(`
kind: paths
allow: ["src/**", "docs/**"]
deny: ["src/generated/**"]
`);

describe('paths check', () => {
  it.each([
    'migrations/001_init.sql',
    'Migrations/001_init.sql',
    'MIGRATIONS/x.sql',
    'src/../migrations/001.sql',
    './migrations/001.sql',
    'package-lock.json',
    'web/package-lock.json',
    '.github/workflows/ci.yml',
    'src/generated/api.ts',
    'migrations',
  ])('refuses a write to the denied %j', async (path) => {
    const [result] = await judgeWith(deny, [write(path)]);
    expect(result).toMatchObject({ ok: false });
    expect(result?.detail).toMatch(/touches a protected path/);
  });

  it.each([
    ['/work/repo/migrations/1.sql', /absolute/],
    ['migrations\\1.sql', /backslash/],
    ['../migrations/1.sql', /climbs out/],
    ['migrations\u2215x.sql', /looks like a slash/],
  ])('refuses the path trick %j as R2 does', async (path, why) => {
    const [result] = await judgeWith(deny, [write(path)]);
    expect(result).toMatchObject({ ok: false });
    expect(result?.detail).toMatch(why);
  });

  it('refuses deletes of denied paths and allows the rest', async () => {
    const results = await judgeWith(deny, [{ type: 'delete', path: 'migrations/002.sql' }, write('src/a.ts'), write('docs/migrations.md')]);
    expect(results.map((result) => result.ok)).toEqual([false, true, true]);
  });

  it('applies deny inside allow, and allow on its own', async () => {
    const results = await judgeWith(both, [write('src/generated/x.ts'), write('src/a.ts'), write('README.md'), write('SRC/a.ts')]);
    expect(results.map((result) => result.ok)).toEqual([false, true, false, false]);
    expect(results[2]?.detail).toMatch(/outside the allowed paths \(src\/\*\*, docs\/\*\*\)/);
  });

  it('is refused at load time without allow or deny, naming the file and field', () => {
    expect(() => ruleWith('kind: paths')).toThrow(RulebookError);
    expect(() => ruleWith('kind: paths')).toThrow(/test\.yaml.*rule R9, field check.*needs `allow:` or `deny:`/s);
    expect(() => ruleWith('kind: paths\ndeny: ["../x/**"]')).toThrow(/climbs with/);
  });
});
