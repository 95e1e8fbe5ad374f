import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, makeGitRepo } from '../harness/test-support/git-repo.js';
import { OnboardError } from './onboard-error.js';
import { snapshotRepo } from './repo-snapshot.js';

const repos: string[] = [];
function repo(files: Record<string, string>): string {
  const root = makeGitRepo(files, 'holdfast-snapshot-');
  repos.push(root);
  return root;
}
afterEach(() => {
  for (const root of repos.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('snapshotRepo', () => {
  it('takes the files git tracks at the commit: ignored and uncommitted files stay out, the root AGENTS.md too', async () => {
    const root = repo({ '.gitignore': 'dist/\n.env\n', 'src/index.ts': 'export const a = 1;\n', 'AGENTS.md': '# rules\n', 'docs/AGENTS.md': 'nested\n' });
    writeFileSync(join(root, '.env'), 'TOKEN=x\n');
    writeFileSync(join(root, 'src/index.ts'), 'changed, not committed\n');
    writeFileSync(join(root, 'untracked.ts'), 'x\n');
    const snapshot = await snapshotRepo(root);
    expect(Object.keys(snapshot.files).sort()).toEqual(['.gitignore', 'docs/AGENTS.md', 'src/index.ts']);
    expect(snapshot.files['src/index.ts']).toBe('export const a = 1;\n');
    expect(snapshot.skipped).toEqual([{ path: 'AGENTS.md', reason: 'rulebook' }]);
    expect(snapshot.commit).toBe(git(root, 'rev-parse', 'HEAD').trim());
  });

  it('reads an older commit by name, and leaves out binary files, symlinks and excluded paths', async () => {
    const root = repo({ 'src/a.ts': 'first\n' });
    git(root, 'tag', 'v1');
    writeFileSync(join(root, 'src/a.ts'), 'second\n');
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    symlinkSync('src/a.ts', join(root, 'link.ts'));
    writeFileSync(join(root, 'fixtures.json'), '{}\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'second');
    expect((await snapshotRepo(root, { commit: 'v1' })).files).toEqual({ 'src/a.ts': 'first\n' });
    const head = await snapshotRepo(root, { exclude: ['*.json'] });
    expect(head.files).toEqual({ 'src/a.ts': 'second\n' });
    expect(head.skipped).toEqual([
      { path: 'fixtures.json', reason: 'excluded' },
      { path: 'latin1.txt', reason: 'binary' },
      { path: 'link.ts', reason: 'symlink' },
      { path: 'logo.png', reason: 'binary' },
    ]);
  });

  it('leaves a vendored tree out and says how to bring it back; refuses only when what it always keeps is over the budget', async () => {
    const root = repo({ 'src/a.ts': 'x'.repeat(3000), 'vendor/big.js': 'y'.repeat(9000), 'README.md': 'r'.repeat(500) });
    const snapshot = await snapshotRepo(root, { maxBytes: 10_000 });
    expect(Object.keys(snapshot.files)).toEqual(['README.md', 'src/a.ts']);
    expect(snapshot.skipped).toEqual([{ path: 'vendor/big.js', reason: 'vendored', bytes: 9000 }]);
    expect(Object.keys((await snapshotRepo(root, { maxBytes: 20_000, include: ['vendor/**'] })).files)).toEqual(['README.md', 'src/a.ts', 'vendor/big.js']);
    const refused = await snapshotRepo(root, { maxBytes: 400 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OnboardError);
    expect((refused as OnboardError).code).toBe('E_TASK_REPO_TOO_LARGE');
    expect((refused as OnboardError).message).toMatch(
      /weigh 1 kB, over the budget of 1 kB \(--max-bytes 400\); the heaviest are README\.md 1 kB\. Leave some out with --exclude GLOB/,
    );
  });

  it('splits a folder that holds most of the weight, and takes source before tests before the rest, each part when it fits', async () => {
    const root = repo({
      'src/v4/core/a.ts': 'x'.repeat(6000),
      'src/v4/classic/b.ts': 'y'.repeat(4000),
      'src/v3/c.ts': 'z'.repeat(1000),
      'tests/v3/c.test.ts': 't'.repeat(1500),
      'examples/e.ts': 'e'.repeat(900),
      'README.md': 'r',
    });
    const snapshot = await snapshotRepo(root, { maxBytes: 6600 });
    expect(Object.keys(snapshot.files)).toEqual(['README.md', 'src/v3/c.ts', 'src/v4/classic/b.ts', 'tests/v3/c.test.ts']);
    expect(snapshot.skipped.map((file) => [file.path, file.reason])).toEqual([
      ['examples/e.ts', 'sampled'],
      ['src/v4/core/a.ts', 'sampled'],
    ]);
  });

  it('says what to pass when the folder is not a repository or the commit does not exist', async () => {
    const root = repo({ 'a.ts': 'a\n' });
    await expect(snapshotRepo(join(root, '..'))).rejects.toThrow(/is not a git repository; pass --repo/);
    await expect(snapshotRepo(root, { commit: 'no-such-branch' })).rejects.toThrow(/"no-such-branch" is not a commit of this repository; pass --commit/);
  });
});
