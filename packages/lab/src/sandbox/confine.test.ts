import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitCommand } from './command.js';
import { confinePath } from './confine.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-confine-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-confine-outside-')));
mkdirSync(join(root, 'src'));
symlinkSync(outside, join(root, 'src', 'away'));
symlinkSync(join(root, 'src'), join(root, 'inside'));

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('confinePath', () => {
  it.each([
    ['../x', /leads out/],
    ['src/../../x', /leads out/],
    ['/etc/passwd', /absolute/],
    ['C:/x', /absolute/],
    ['src\\x.ts', /backslash/],
    ['.git/hooks/pre-commit', /inside \.git/],
    ['src/.GIT/config', /inside \.git/],
    ['src/away/x.ts', /src\/away is a symlink that points outside/],
    ['src/away', /points outside/],
    ['', /empty/],
  ])('refuses %j', (path, reason) => {
    const confined = confinePath(root, path);
    expect(confined.ok).toBe(false);
    if (!confined.ok) expect(confined.reason).toMatch(reason);
  });

  it('accepts paths inside, resolving a symlink that stays inside', () => {
    expect(confinePath(root, 'src/./a.ts')).toEqual({ ok: true, relative: 'src/a.ts', absolute: join(root, 'src', 'a.ts') });
    expect(confinePath(root, 'new/deep/file.ts')).toEqual({ ok: true, relative: 'new/deep/file.ts', absolute: join(root, 'new', 'deep', 'file.ts') });
    expect(confinePath(root, 'inside/b.ts')).toEqual({ ok: true, relative: 'inside/b.ts', absolute: join(root, 'src', 'b.ts') });
  });
});

describe('splitCommand', () => {
  it('splits plain words and refuses what a shell would interpret', () => {
    expect(splitCommand('  npm   test ')).toEqual({ ok: true, argv: ['npm', 'test'], normalized: 'npm test' });
    for (const cmd of ['npm test && rm -rf /', 'npm test | tee x', 'echo $HOME', 'npm test "x"', 'ls *', 'a\nb']) {
      expect(splitCommand(cmd).ok, cmd).toBe(false);
    }
    expect(splitCommand('   ')).toEqual({ ok: false, reason: 'the command is empty' });
  });
});
