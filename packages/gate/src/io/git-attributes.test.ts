import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutAttributes, parseGitAttributes } from './git-attributes.js';

// Every line git reads in a .gitattributes, holdfast reads the same: a pattern git matches and holdfast did not would
// leave a re-encoded blob judged as the noise git stores instead of the text a checkout gives back.
const LINES = [
  '"q uoted.ts" working-tree-encoding=UTF-16LE',
  '"src/oct\\141l.ts" working-tree-encoding=UTF-16LE',
  '"tab\\there.ts" eol=crlf',
  '"unclosed.ts working-tree-encoding=UTF-16LE',
  '{a,b}.ts working-tree-encoding=UTF-16LE',
  '[[:digit:]]x.ts working-tree-encoding=UTF-16LE',
  'lit\\*.ts working-tree-encoding=UTF-16LE',
  'deep/**/z.ts working-tree-encoding=UTF-16LE',
  '**/y.ts eol=crlf',
  '*.md text eol=crlf',
  'src/*.js working-tree-encoding=UTF-16LE',
  '!neg.ts working-tree-encoding=UTF-16LE',
  '\\!lit.ts working-tree-encoding=UTF-16LE',
  '@(p|q).ts working-tree-encoding=UTF-16LE',
  '+(r).ts working-tree-encoding=UTF-16LE',
  'w?.ts working-tree-encoding=UTF-16LE',
  '[!a]c.ts working-tree-encoding=UTF-16LE',
  '[^a]d.ts working-tree-encoding=UTF-16LE',
  '.hid* working-tree-encoding=UTF-16LE',
  '*.bin binary',
];
const PATHS = [
  'q uoted.ts',
  'q',
  'src/octal.ts',
  'tab\there.ts',
  '"unclosed.ts',
  'unclosed.ts',
  'a.ts',
  '{a,b}.ts',
  '1x.ts',
  'ax.ts',
  'lit*.ts',
  'litx.ts',
  'deep/z.ts',
  'deep/a/b/z.ts',
  'y.ts',
  'a/y.ts',
  'r.md',
  'src/k.js',
  'src/d/k.js',
  'neg.ts',
  '!neg.ts',
  '!lit.ts',
  'p.ts',
  '@(p|q).ts',
  'r.ts',
  '+(r).ts',
  'w1.ts',
  'w/.ts',
  'bc.ts',
  'ac.ts',
  'bd.ts',
  'ad.ts',
  '.hidden',
  'x/.hidden',
];

function gitSays(lines: readonly string[], paths: readonly string[]): Map<string, { encoding: string | undefined; eol: string | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-attributes-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, '.gitattributes'), `${lines.join('\n')}\n`);
  const fields = execFileSync('git', ['check-attr', '-z', '--stdin', 'working-tree-encoding', 'eol'], {
    cwd: dir,
    input: `${paths.join('\0')}\0`,
    stdio: ['pipe', 'pipe', 'ignore'],
  })
    .toString('utf8')
    .split('\0');
  const said = new Map<string, { encoding: string | undefined; eol: string | undefined }>();
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const [path, attribute, value] = fields.slice(index, index + 3) as [string, string, string];
    const entry = said.get(path) ?? { encoding: undefined, eol: undefined };
    const set = value === 'unspecified' || value === 'unset' || value === 'set' ? undefined : value;
    said.set(path, attribute === 'eol' ? { ...entry, eol: set } : { ...entry, encoding: set });
  }
  return said;
}

describe('a .gitattributes read as git reads it (real git check-attr)', () => {
  it('quoted patterns, bracket sets, literal braces and extended-glob characters, negative patterns ignored', () => {
    const git = gitSays(LINES, PATHS);
    const file = parseGitAttributes(`${LINES.join('\n')}\n`, '');
    const ours = PATHS.map((path) => {
      const attributes = checkoutAttributes(path, [file]);
      return { path, encoding: attributes.workingTreeEncoding, eol: attributes.eol };
    });
    expect(ours).toEqual(PATHS.map((path) => ({ path, ...git.get(path) })));
    // The test can fail: the quoted and octal names are matched, not only the plain ones.
    expect(ours.filter((entry) => entry.encoding === 'UTF-16LE').map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['q uoted.ts', 'src/octal.ts', '{a,b}.ts', 'bc.ts', 'bd.ts', '!lit.ts']),
    );
  });
});
