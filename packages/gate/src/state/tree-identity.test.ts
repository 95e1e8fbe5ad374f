import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stagedTreeIdentity, treeIdentity, workTreeIdentity } from './tree-identity.js';

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-identity-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'orders.ts'), 'export const orders = 1;\n');
  return root;
}

const git = (root: string) => (args: readonly string[], input?: string) =>
  execFileSync('git', [...args], { cwd: root, ...(input !== undefined ? { input } : {}), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });

/** The identity of what `git add -A` stages in the project itself (the user's index, not the gate's store). */
function stagedAll(root: string): string {
  execFileSync('git', ['add', '-A'], { cwd: root });
  return stagedTreeIdentity(git(root));
}

describe('tree identity', () => {
  it('is the tree id itself when nothing is left out, the same for the store and the project', () => {
    const root = repo();
    const identity = workTreeIdentity(root);
    expect(stagedAll(root)).toBe(identity);
    expect(identity).toBe(git(root)(['write-tree']).toString('utf8').trim());
  });

  it('leaves the agents’ settings and installed dependencies out of a commit’s tree', () => {
    const root = repo();
    const before = workTreeIdentity(root);
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', 'x.js'), '1\n');
    // The project's index now holds .claude/ and node_modules/: its identity is the tree without them.
    expect(stagedAll(root)).toBe(before);
    expect(workTreeIdentity(root)).toBe(before);
  });

  it('leaves out what the user tracks in those folders, the store’s tree is its own identity', () => {
    const root = repo();
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', 'x.js'), '1\n');
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'tracked'], { cwd: root });
    // The store starts from this index (which tracks .claude/ and node_modules/) and drops them.
    const identity = workTreeIdentity(root);
    expect(stagedAll(root)).toBe(identity);
    writeFileSync(join(root, '.claude', 'settings.json'), '{"changed":true}\n');
    expect(workTreeIdentity(root)).toBe(identity);
    expect(stagedAll(root)).toBe(identity);
    rmSync(join(root, '.claude'), { recursive: true });
    expect(workTreeIdentity(root)).toBe(identity);
    expect(stagedAll(root)).toBe(identity);
    writeFileSync(join(root, 'src', 'orders.ts'), 'export const orders = 3;\n');
    expect(workTreeIdentity(root)).not.toBe(identity);
  });

  it('tells trees apart that differ in a counted file, mode or name', () => {
    const root = repo();
    const first = workTreeIdentity(root);
    writeFileSync(join(root, 'src', 'orders.ts'), 'export const orders = 2;\n');
    const second = workTreeIdentity(root);
    expect(second).not.toBe(first);
    expect(stagedAll(root)).toBe(second);
    writeFileSync(join(root, 'src', 'orders.test.ts'), 'it;\n');
    expect(workTreeIdentity(root)).not.toBe(second);
  });

  it('lists the store’s tree when a file or link has a left-out name (the store keeps those)', () => {
    const root = repo();
    const before = workTreeIdentity(root);
    const elsewhere = mkdtempSync(join(tmpdir(), 'holdfast-identity-modules-'));
    symlinkSync(elsewhere, join(root, 'node_modules'));
    writeFileSync(join(root, '.codex'), 'a file, not the settings folder\n');
    expect(workTreeIdentity(root)).toBe(before);
    expect(stagedAll(root)).toBe(before);
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('takes a tree-ish as well as an id', () => {
    const root = repo();
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'one'], { cwd: root });
    expect(treeIdentity(git(root), 'HEAD^{tree}')).toBe(workTreeIdentity(root));
  });
});
