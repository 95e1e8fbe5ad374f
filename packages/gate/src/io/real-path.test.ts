import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, resolveActionPaths, resolveOnDisk } from './real-path.js';

function layout(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'holdfast-real-'));
  const root = join(base, 'repo');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'package.json'), '{}\n');
  symlinkSync('..', join(root, 'src', 'up'));
  symlinkSync(outside, join(root, 'src', 'away'));
  symlinkSync('../.git/hooks', join(root, 'src', 'hooks'));
  symlinkSync('lib', join(root, 'src', 'alias'));
  symlinkSync('../../package.json', join(root, 'src', 'lib', 'pkg.json'));
  symlinkSync('missing/target.ts', join(root, 'src', 'dangling.ts'));
  return { root, outside };
}

describe('resolveOnDisk', () => {
  const { root } = layout();
  const project = projectRoot(root, { caseInsensitive: false });

  it.each([
    ['src/a.ts', false, 'src/a.ts'],
    ['src/up/package.json', false, 'package.json'],
    ['src/up/src/up/x.ts', false, 'x.ts'],
    ['src/away/x.ts', false, '../outside/x.ts'],
    ['src/hooks/pre-commit', false, '.git/hooks/pre-commit'],
    ['src/alias/http.ts', false, 'src/lib/http.ts'],
    ['src/lib/pkg.json', false, 'package.json'],
    ['src/dangling.ts', false, 'src/missing/target.ts'],
    ['src/up/../x', false, '../x'],
    ['src/new/deeper/../file.ts', false, 'src/new/file.ts'],
    ['../repo/src/a.ts', false, 'src/a.ts'],
    ['src/lib/pkg.json', true, 'src/lib/pkg.json'],
    ['src/up', true, 'src/up'],
  ])('%s (delete: %s) lands at %s', (path, isDelete, expected) => {
    expect(resolveOnDisk(project, path, isDelete).repoPath).toBe(expected);
  });

  it('matches names against the directory listing on a case-insensitive volume', () => {
    const folded = projectRoot(root, { caseInsensitive: true });
    expect(resolveOnDisk(folded, 'SRC/Lib/http.ts', false).repoPath).toBe('src/lib/http.ts');
    expect(resolveOnDisk(folded, 'SRC/UP/Package.json', false).repoPath).toBe('package.json');
    expect(resolveOnDisk(project, 'SRC/Lib/http.ts', false).repoPath).toBe('SRC/Lib/http.ts');
  });

  it('stops following a symlink loop instead of spinning', () => {
    const loopRoot = mkdtempSync(join(tmpdir(), 'holdfast-loop-'));
    symlinkSync('a', join(loopRoot, 'b'));
    symlinkSync('b', join(loopRoot, 'a'));
    expect(resolveOnDisk(projectRoot(loopRoot, { caseInsensitive: false }), 'a/x.ts', false).repoPath).toMatch(/x\.ts$/);
  });
});

describe('resolveActionPaths', () => {
  it('rewrites what the file system would change and notes it; leaves paths the rules refuse as text', () => {
    const { root } = layout();
    const { actions, notes } = resolveActionPaths(
      [
        { type: 'write', path: 'src/up/package.json', content: '{}' },
        { type: 'write', path: 'src/a.ts', content: '' },
        { type: 'write', path: './src/b.ts', content: '' },
        { type: 'write', path: 'src\\c.ts', content: '' },
        { type: 'delete', path: 'src/up' },
        { type: 'run', cmd: 'npm test' },
      ],
      projectRoot(root, { caseInsensitive: false }),
    );
    expect(actions.map((action) => (action.type === 'write' || action.type === 'delete' ? action.path : action.type))).toEqual([
      'package.json',
      'src/a.ts',
      './src/b.ts',
      'src\\c.ts',
      'src/up',
      'run',
    ]);
    expect(notes).toEqual([{ written: 'src/up/package.json', resolved: 'package.json' }]);
  });
});
