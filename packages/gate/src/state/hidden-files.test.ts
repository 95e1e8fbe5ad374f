import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIgnoreRules, rulesFromTop } from './hidden-files.js';
import { readRepoState } from './repo-state.js';
import { ensureStore } from './snapshot-store.js';

describe('rulesFromTop', () => {
  it.each([
    ['', 'dist/\n# note\n\n*.log  \n!keep.log\n', ['dist/', '*.log', '!keep.log']],
    ['src', 'keys.json\n', ['/src/**/keys.json']],
    ['src/gen', '*\n', ['/src/gen/**/*']],
    ['src', '/out/\nlib/*.js\n', ['/src/out/', '/src/lib/*.js']],
    ['src', '!important.json\ncache/\n', ['!/src/**/important.json', '/src/**/cache/']],
    ['src', 'a\r\nb\\  \nc \t\n', ['/src/**/a', '/src/**/b\\ ', '/src/**/c \t']],
  ])('rewrites the .gitignore of "%s" to patterns read from the top', (folder, text, expected) => {
    expect(rulesFromTop(folder, text)).toEqual(expected);
  });

  it('keeps what git ignores the same when the rules are read from the top', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-rules-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    mkdirSync(join(root, 'src', 'deep', 'cache'), { recursive: true });
    const rules = 'keys.json\n/top.txt\ncache/\n!keep.json\n*.json\n';
    for (const path of [
      'src/keys.json',
      'src/deep/keys.json',
      'src/top.txt',
      'src/deep/top.txt',
      'src/deep/cache/x.ts',
      'src/keep.json',
      'src/other.json',
      'src/a.ts',
    ])
      writeFileSync(join(root, path), '');
    writeFileSync(join(root, 'src', '.gitignore'), rules);
    const list = (args: string[]) =>
      execFileSync('git', ['ls-files', '--others', ...args], { cwd: root })
        .toString()
        .split('\n')
        .filter(Boolean)
        .sort();
    const byGit = list(['--exclude-standard']);
    writeFileSync(join(root, 'rules'), `${rulesFromTop('src', rules).join('\n')}\n`);
    const byRewrite = list(['--exclude-from=rules', '--exclude=/rules']).filter((path) => path !== 'src/.gitignore');
    expect(byRewrite).toEqual(byGit.filter((path) => path !== 'src/.gitignore'));
    expect(byGit).toEqual(['src/.gitignore', 'src/a.ts', 'src/deep/top.txt']);
  });
});

describe('checkIgnoreRules', () => {
  it('says the rules stayed when nothing ignored changed, and lists what was ignored when the store was made', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-ignored-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    writeFileSync(join(root, 'dist', 'out.js'), '');
    const store = ensureStore(root, readRepoState(root));
    const first = checkIgnoreRules({ root, store }, []);
    expect(first).toEqual({ mayHaveChanged: false, ignoredBefore: { entries: ['.holdfast/', 'dist/'] }, ignoredNow: expect.any(Function) });
    expect(first.ignoredNow()).toEqual({ entries: ['.holdfast/', 'dist/'] });
    writeFileSync(join(root, 'dist', 'more.js'), '');
    expect(checkIgnoreRules({ root, store }, []).mayHaveChanged).toBe(false);
    writeFileSync(join(root, 'notes.log'), '');
    writeFileSync(join(root, '.gitignore'), 'dist/\n*.log\n');
    expect(checkIgnoreRules({ root, store }, []).mayHaveChanged).toBe(true);
    expect(checkIgnoreRules({ root, store }, [{ path: 'src/.gitignore', status: 'added', from: null, to: 'abc' }]).mayHaveChanged).toBe(true);
  });
});
