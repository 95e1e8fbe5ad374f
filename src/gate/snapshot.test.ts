import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postCheckAvailable } from './git-process.js';
import { readRepoState } from './repo-state.js';
import { beforeShellCall, findSnapshotRecord, takeSnapshot } from './snapshot.js';
import { snapshotStorePath, treeChanges } from './snapshot-store.js';

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8').trimEnd();
}

function repository(files = 30): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-snapshot-'));
  mkdirSync(join(root, 'src'));
  for (let index = 0; index < files; index += 1) writeFileSync(join(root, 'src', `f${index}.ts`), `export const v = ${index};\n`);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, '-c', 'user.email=s@example.test', '-c', 'user.name=s', 'commit', '-qm', 'start');
  return root;
}

function looseObjects(objects: string): number {
  return readdirSync(objects)
    .filter((name) => /^[0-9a-f]{2}$/.test(name))
    .reduce((count, folder) => count + readdirSync(join(objects, folder)).length, 0);
}

describe('the snapshot store', () => {
  it('is available where git runs', () => {
    expect(postCheckAvailable()).toBe(true);
  });

  it('never writes to the user\'s index, objects or refs, and starts from their index instead of hashing every file', () => {
    const root = repository();
    writeFileSync(join(root, 'src', 'f1.ts'), 'export const v = 100;\n');
    git(root, 'add', 'src/f1.ts');
    const index = readFileSync(join(root, '.git', 'index'));
    const objects = looseObjects(join(root, '.git', 'objects'));
    const status = git(root, 'status', '--porcelain');
    beforeShellCall(root, 's', 'toolu_1');
    writeFileSync(join(root, 'src', 'new.ts'), 'export const n = 1;\n');
    takeSnapshot(root);
    expect(readFileSync(join(root, '.git', 'index')).equals(index)).toBe(true);
    expect(looseObjects(join(root, '.git', 'objects'))).toBe(objects);
    expect(git(root, 'status', '--porcelain')).toBe(`${status}\n?? src/new.ts`);
    // The committed files are read through the user's objects: the store holds none of their blobs.
    const committed = git(root, 'ls-tree', '-r', '--object-only', 'HEAD').split('\n');
    const stored = committed.filter((id) => existsSync(join(snapshotStorePath(root), 'objects', id.slice(0, 2), id.slice(2))));
    expect(committed).toHaveLength(30);
    expect(stored).toEqual([]);
  });

  it('diffs two snapshots path by path, honouring .gitignore and leaving node_modules and .git out', () => {
    const root = repository(2);
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    const before = takeSnapshot(root);
    mkdirSync(join(root, 'dist'));
    mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(root, 'dist', 'a.js'), 'x\n');
    writeFileSync(join(root, 'node_modules', 'x', 'i.js'), 'x\n');
    writeFileSync(join(root, 'src', 'f0.ts'), 'changed\n');
    writeFileSync(join(root, 'src', 'g.ts'), 'new\n');
    execFileSync('rm', [join(root, 'src', 'f1.ts')]);
    const after = takeSnapshot(root);
    expect(treeChanges(root, before.tree, after.tree).map(({ path, status }) => `${status} ${path}`)).toEqual(['modified src/f0.ts', 'deleted src/f1.ts', 'added src/g.ts']);
  });

  it('reads branch and tag tips from loose and packed refs as git does', () => {
    const root = repository(1);
    git(root, 'tag', '-a', 'v1', '-m', 'one');
    git(root, 'branch', 'side');
    git(root, 'pack-refs', '--all');
    git(root, 'tag', 'light');
    const state = readRepoState(root);
    const expected = Object.fromEntries(
      git(root, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags')
        .split('\n')
        .map((line) => line.split(' ')),
    );
    expect(state?.refs).toEqual(expected);
    expect(state?.headRef).toBe('refs/heads/main');
    expect(state?.headCommit).toBe(git(root, 'rev-parse', 'HEAD'));
  });

  it('keys records by tool_use_id and removes one once it is closed', () => {
    const root = repository(1);
    const record = beforeShellCall(root, 'session one', 'toolu_/../x');
    const open = findSnapshotRecord(root, 'session one', 'toolu_/../x');
    expect(open?.record.tree).toBe(record.tree);
    open?.close();
    expect(findSnapshotRecord(root, 'session one', 'toolu_/../x')).toBeUndefined();
    expect(readdirSync(join(snapshotStorePath(root), 'calls'))).toEqual([]);
  });
});
