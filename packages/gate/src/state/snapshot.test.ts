import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unsealText } from './state-seal.js';
import { describe, expect, it } from 'vitest';
import { gitVersionSupported, postCheckAvailable } from '../io/git-process.js';
import { readRepoState } from './repo-state.js';
import { beforeReadOnlyShellCall, beforeShellCall, findSnapshotRecord, pruneStore, takeSnapshot, takeSnapshotAfter } from './snapshot.js';
import { ensureStore, snapshotStorePath, treeChanges, workTreeTreeAside } from './snapshot-store.js';
import type { AddedIndex } from './snapshot-store.js';
import { captureGuarded } from './guarded-files.js';
import type { GuardedFile } from './guarded-files.js';

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString('utf8')
    .trimEnd();
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

describe('records of calls whose PostToolUse never came', () => {
  it('are swept when a day old, at most once an hour (a call does not stat every record)', () => {
    const root = repository(1);
    const calls = join(snapshotStorePath(root), 'calls');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    const stale = (name: string) => {
      writeFileSync(join(calls, name), '{}\n');
      utimesSync(join(calls, name), twoDaysAgo, twoDaysAgo);
    };
    beforeReadOnlyShellCall(root, 's', 'toolu_1');
    stale('t-old-1.json');
    utimesSync(`${calls}.swept`, twoDaysAgo, twoDaysAgo);
    beforeReadOnlyShellCall(root, 's', 'toolu_2');
    expect(existsSync(join(calls, 't-old-1.json'))).toBe(false);
    stale('t-old-2.json');
    beforeReadOnlyShellCall(root, 's', 'toolu_3');
    expect(existsSync(join(calls, 't-old-2.json'))).toBe(true);
    expect(existsSync(join(calls, 't-toolu_3.json'))).toBe(true);
  });
});

describe('the snapshot store', () => {
  it('is available where git 2.26 or later runs', () => {
    expect(postCheckAvailable()).toBe(true);
    expect(gitVersionSupported('git version 2.39.5')).toBe(true);
    expect(gitVersionSupported('git version 2.26.0.windows.1')).toBe(true);
    expect(gitVersionSupported('git version 2.25.4')).toBe(false);
    expect(gitVersionSupported('git version 1.8.3.1')).toBe(false);
    expect(gitVersionSupported('command not found')).toBe(false);
  });

  it('hashes everything again when an object its index names is gone', () => {
    const root = repository(3);
    // Files older than the index are trusted by their stat data, not hashed again (no racy entries).
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['f0.ts', 'f1.ts', 'f2.ts']) utimesSync(join(root, 'src', name), hourAgo, hourAgo);
    git(root, 'add', '-A');
    rmSync(join(snapshotStorePath(root)), { recursive: true, force: true });
    takeSnapshot(root);
    // The user's repository loses the objects the store's index was seeded from (a clone replaced, a gc).
    git(root, 'rm', '-q', '--cached', 'src/f0.ts', 'src/f1.ts', 'src/f2.ts');
    execFileSync('rm', ['-rf', join(root, '.git', 'objects')]);
    execFileSync('mkdir', ['-p', join(root, '.git', 'objects', 'info'), join(root, '.git', 'objects', 'pack')]);
    writeFileSync(join(root, 'src', 'f3.ts'), 'new\n');
    const after = takeSnapshot(root);
    expect(execFileSync('git', [`--git-dir=${snapshotStorePath(root)}`, 'ls-tree', '-r', '--name-only', after.tree as string]).toString()).toBe(
      'src/f0.ts\nsrc/f1.ts\nsrc/f2.ts\nsrc/f3.ts\n',
    );
  });

  it("never writes to the user's index, objects or refs, and starts from their index instead of hashing every file", () => {
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
    expect(treeChanges(root, before.tree as string, after.tree as string).map(({ path, status }) => `${status} ${path}`)).toEqual([
      'modified src/f0.ts',
      'deleted src/f1.ts',
      'added src/g.ts',
    ]);
  });

  it('reads ref tips of every namespace but remote-tracking, notes and replace refs from loose and packed refs as git does', () => {
    const root = repository(1);
    git(root, 'tag', '-a', 'v1', '-m', 'one');
    git(root, 'branch', 'side');
    git(root, 'update-ref', 'refs/wip/packed', 'HEAD');
    git(root, 'pack-refs', '--all');
    git(root, 'tag', 'light');
    git(root, 'update-ref', 'refs/keep/deep/x', 'HEAD');
    git(root, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
    git(root, 'update-ref', 'refs/notes/commits', 'HEAD');
    const state = readRepoState(root);
    const expected = Object.fromEntries(
      git(root, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/wip', 'refs/keep')
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
    expect(open?.record).toMatchObject({ index: record.index });
    expect(existsSync(join(snapshotStorePath(root), record.index as string))).toBe(true);
    open?.close();
    expect(findSnapshotRecord(root, 'session one', 'toolu_/../x')).toBeUndefined();
    expect(readdirSync(join(snapshotStorePath(root), 'calls'))).toEqual([]);
  });
});

describe("a shell call's before and after", () => {
  const changed = (root: string, trees: { before: string; after: string } | null) =>
    trees === null ? null : treeChanges(root, trees.before, trees.after).map(({ path, status }) => `${status} ${path}`);

  it('writes no tree when git sees nothing changed, and both when something did, a same-size rewrite in the same second included', () => {
    const root = repository(3);
    const objects = () => looseObjects(join(snapshotStorePath(root), 'objects'));
    const quiet = beforeShellCall(root, 's', 'toolu_quiet');
    const stored = objects();
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', 'cache.json'), '{}\n');
    expect(takeSnapshotAfter(root, quiet).trees).toBeNull();
    expect(objects()).toBe(stored);
    const busy = beforeShellCall(root, 's', 'toolu_busy');
    writeFileSync(join(root, 'src', 'f0.ts'), 'export const v = 9;\n');
    writeFileSync(join(root, 'src', 'new.ts'), 'x\n');
    rmSync(join(root, 'src', 'f2.ts'));
    expect(changed(root, takeSnapshotAfter(root, busy).trees)).toEqual(['modified src/f0.ts', 'deleted src/f2.ts', 'added src/new.ts']);
  });

  it("compares from the call's own index, whatever an overlapping call did to the store's", () => {
    const root = repository(2);
    const first = beforeShellCall(root, 's', 'toolu_a');
    writeFileSync(join(root, 'src', 'f0.ts'), 'export const v = 7;\n');
    const second = beforeShellCall(root, 's', 'toolu_b');
    expect(changed(root, takeSnapshotAfter(root, first).trees)).toEqual(['modified src/f0.ts']);
    expect(takeSnapshotAfter(root, second).trees).toBeNull();
  });

  it('reads a record of an earlier holdfast, which carries its before-tree', () => {
    const root = repository(2);
    const before = takeSnapshot(root);
    expect(before.tree).toMatch(/^[0-9a-f]{40}$/);
    writeFileSync(join(root, 'src', 'f1.ts'), 'changed\n');
    expect(changed(root, takeSnapshotAfter(root, { guarded: before.guarded, repo: before.repo, tree: before.tree as string }).trees)).toEqual([
      'modified src/f1.ts',
    ]);
  });

  it('says so when the content its before-index names is gone, and the next snapshot reads every file again', () => {
    const root = repository(3);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['f0.ts', 'f1.ts', 'f2.ts']) utimesSync(join(root, 'src', name), hourAgo, hourAgo);
    git(root, 'add', '-A');
    rmSync(snapshotStorePath(root), { recursive: true, force: true });
    const record = beforeShellCall(root, 's', 'toolu_1');
    git(root, 'rm', '-q', '--cached', 'src/f0.ts', 'src/f1.ts', 'src/f2.ts');
    execFileSync('rm', ['-rf', join(root, '.git', 'objects')]);
    execFileSync('mkdir', ['-p', join(root, '.git', 'objects', 'info'), join(root, '.git', 'objects', 'pack')]);
    writeFileSync(join(root, 'src', 'f3.ts'), 'new\n');
    expect(() => takeSnapshotAfter(root, record)).toThrow(/gone from the repository/);
    const next = beforeShellCall(root, 's', 'toolu_2');
    writeFileSync(join(root, 'src', 'f0.ts'), 'again\n');
    expect(changed(root, takeSnapshotAfter(root, next).trees)).toEqual(['modified src/f0.ts']);
  });
});

describe('pruning the store', () => {
  it('drops objects no index holds once they are two weeks old, and keeps young ones and what the index holds', () => {
    const root = repository(1);
    const call = beforeShellCall(root, 's', 'toolu_1');
    writeFileSync(join(root, 'src', 'f0.ts'), 'refused content\n');
    writeFileSync(join(root, 'src', 'kept.ts'), 'kept content\n');
    const trees = takeSnapshotAfter(root, call).trees as { before: string; after: string };
    findSnapshotRecord(root, 's', 'toolu_1')?.close();
    const store = snapshotStorePath(root);
    const object = (id: string) => join(store, 'objects', id.slice(0, 2), id.slice(2));
    const blob = (path: string) => git(root, `--git-dir=${store}`, 'rev-parse', `${trees.after}:${path}`);
    const refused = blob('src/f0.ts');
    const kept = blob('src/kept.ts');
    // The gate put the refused content back; the store's index now holds the file's old content and kept.ts.
    writeFileSync(join(root, 'src', 'f0.ts'), 'export const v = 0;\n');
    beforeShellCall(root, 's', 'toolu_2');
    pruneStore(root, { wait: true });
    expect(existsSync(object(refused))).toBe(true);
    const weeksAgo = new Date(Date.now() - 15 * 24 * 60 * 60 * 1000);
    for (const folder of readdirSync(join(store, 'objects')).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
      for (const name of readdirSync(join(store, 'objects', folder))) utimesSync(join(store, 'objects', folder, name), weeksAgo, weeksAgo);
    }
    pruneStore(root, { wait: true });
    expect(existsSync(object(refused))).toBe(false);
    expect(existsSync(object(trees.after))).toBe(false);
    expect(existsSync(object(kept))).toBe(true);
  });
});

describe('guarded files between calls', () => {
  it('reuses the blob of a file whose identity is unchanged before a call, and reads every file in the after-the-fact check', () => {
    const root = repository(1);
    const repo = readRepoState(root);
    const store = ensureStore(root, repo);
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    // As if the file had been written long ago (a file changed in the last seconds is always read again).
    const later = () => Date.now() + 60_000;
    const first = captureGuarded(root, store, repo, { reuseUnchanged: true, nowMs: later });
    const known = join(store, 'guarded-blobs.json');
    const list = JSON.parse(unsealText('guarded-blobs', readFileSync(known, 'utf8')) ?? '') as Record<string, { identity: string; blob: string }>;
    expect(list['.git/hooks/pre-commit']?.blob).toBe(first['.git/hooks/pre-commit']?.blob);
    // A list a command rewrote (it has no valid seal) is no evidence: every file is read, before a call too.
    const forged = first['.git/config']?.blob as string;
    writeFileSync(known, JSON.stringify({ ...list, '.git/hooks/pre-commit': { ...list['.git/hooks/pre-commit'], blob: forged } }));
    expect(captureGuarded(root, store, repo, { reuseUnchanged: true, nowMs: later })['.git/hooks/pre-commit']?.blob).toBe(first['.git/hooks/pre-commit']?.blob);
    expect(captureGuarded(root, store, repo, { nowMs: later })['.git/hooks/pre-commit']?.blob).toBe(first['.git/hooks/pre-commit']?.blob);
    // A change of the file changes its identity, so it is read again.
    writeFileSync(hook, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    expect(captureGuarded(root, store, repo, { reuseUnchanged: true, nowMs: later })['.git/hooks/pre-commit']?.blob).not.toBe(
      first['.git/hooks/pre-commit']?.blob,
    );
  });
  it("takes in the after-the-fact check only the blobs of files whose identity the call's own before-snapshot recorded, and reads the rest", () => {
    const root = repository(1);
    const repo = readRepoState(root);
    const store = ensureStore(root, repo);
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const later = () => Date.now() + 60_000;
    const before = captureGuarded(root, store, repo, { reuseUnchanged: true, nowMs: later });
    const recorded = before['.git/hooks/pre-commit'];
    expect(recorded?.identity).toMatch(/^\d+:\d+:/);
    // A file changed in the last seconds carries no identity: the check after the call reads it.
    expect(captureGuarded(root, store, repo, { reuseUnchanged: true })['.git/hooks/pre-commit']?.identity).toBeUndefined();
    // The recorded blob is what the check takes while the identity holds (here a stand-in, to tell it was not read)...
    const standIn = before['.git/config']?.blob as string;
    const record = { ...before, '.git/hooks/pre-commit': { ...(recorded as GuardedFile), blob: standIn } };
    expect(captureGuarded(root, store, repo, { unchangedSince: record, nowMs: later })['.git/hooks/pre-commit']?.blob).toBe(standIn);
    // ...and a write changes the identity, so the file is read.
    writeFileSync(hook, '#!/bin/sh\nexit 10\n', { mode: 0o755 });
    const after = captureGuarded(root, store, repo, { unchangedSince: record, nowMs: later });
    expect(after['.git/hooks/pre-commit']?.blob).not.toBe(standIn);
    expect(after['.git/hooks/pre-commit']?.blob).not.toBe(recorded?.blob);
    // The store's shared list plays no part in it.
    writeFileSync(join(store, 'guarded-blobs.json'), '{}');
    expect(captureGuarded(root, store, repo, { unchangedSince: {}, nowMs: later })['.git/hooks/pre-commit']?.blob).toBe(after['.git/hooks/pre-commit']?.blob);
  });
});

describe('the index a commit decision added, handed to the call’s snapshot', () => {
  /** Files of the store's top folder that are not git's own: a leftover added index would be one. */
  const strays = (root: string) => readdirSync(snapshotStorePath(root)).filter((name) => name.startsWith('index') && name !== 'index');

  it('becomes the call’s before-index as an added index of its own would, and the store keeps no copy', () => {
    const root = repository(3);
    ensureStore(root, readRepoState(root));
    beforeShellCall(root, 's', 'toolu_first');
    writeFileSync(join(root, 'src', 'f1.ts'), 'export const v = "changed";\n');
    let added: AddedIndex | undefined;
    const tree = workTreeTreeAside(root, (kept) => (added = kept));
    expect(strays(root)).toHaveLength(1);
    const handed = beforeShellCall(root, 's', 'toolu_handed', () => new Date(), added);
    added?.drop();
    expect(strays(root)).toEqual([]);
    const own = beforeShellCall(root, 's', 'toolu_own');
    const store = snapshotStorePath(root);
    const treeOf = (index: string) =>
      execFileSync('git', ['write-tree'], { cwd: root, env: { ...process.env, GIT_DIR: store, GIT_WORK_TREE: root, GIT_INDEX_FILE: join(store, index) } })
        .toString()
        .trim();
    expect(treeOf(handed.index as string)).toBe(tree);
    expect(treeOf(own.index as string)).toBe(tree);
  });

  it('is removed when no snapshot took it (a refused commit)', () => {
    const root = repository(1);
    ensureStore(root, readRepoState(root));
    let added: AddedIndex | undefined;
    workTreeTreeAside(root, (kept) => (added = kept));
    expect(strays(root)).toHaveLength(1);
    added?.drop();
    expect(strays(root)).toEqual([]);
    expect(added?.take()).toBeUndefined();
  });
});
