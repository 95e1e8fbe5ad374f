import { describe, expect, it } from 'vitest';
import { normalizeRepoPath } from './paths.js';

describe('normalizeRepoPath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['src//lib/./http.ts', 'src/lib/http.ts'],
    ['src/a/../b.ts', 'src/b.ts'],
    ['src/../etc/passwd', 'etc/passwd'],
    ['src/cafe\u0301.ts', 'src/caf\u00e9.ts'],
    ['.env', '.env'],
    ['src/.../a..b/..c', 'src/.../a..b/..c'],
    ['src/a/.', 'src/a'],
    ['src/a/..', 'src'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeRepoPath(input)).toEqual({ ok: true, path: expected });
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['//server/share/x', /absolute/],
    ['C:\\src\\a.ts', /backslash/],
    ['c:/src/a.ts', /drive letter/],
    ['C:src/a.ts', /drive letter/],
    ['src\\a.ts', /backslash/],
    ['../a.ts', /climbs out/],
    ['src/../../a.ts', /climbs out/],
    ['src/a\u0000.ts', /NUL/],
    ['src/a\n.ts', /control character/],
    ['src\uFF0Fa.ts', /looks like a slash/],
    ['src\u2215a.ts', /looks like a slash/],
    ['src\u2044a.ts', /looks like a slash/],
    ['src/\u202Ets.a', /invisible/],
    ['src/a\u200B.ts', /invisible/],
    ['~/a.ts', /home/],
    ['src/', /directory/],
    ['.', /root/],
    ['src/..', /root/],
    ['a'.repeat(5000), /longer than/],
  ])('refuses %j', (input, reason) => {
    const result = normalizeRepoPath(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it.each([[42], [null], [undefined], [{}], [['src/a.ts']]])('refuses a non-string path %j', (input) => {
    const result = normalizeRepoPath(input);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/not a string/) });
  });
});
