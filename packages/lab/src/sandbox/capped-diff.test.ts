import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cappedDiff } from './capped-diff.js';
import { hermeticGitEnv } from './git.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-diff-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, env: hermeticGitEnv() });

describe('cappedDiff', () => {
  it('caps each file, so a huge file never hides the small violating one after it, and counts the full size', async () => {
    git('init', '-q');
    writeFileSync(join(dir, 'keep.txt'), 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const base = git('rev-parse', 'HEAD').toString().trim();
    writeFileSync(join(dir, 'a-huge.txt'), 'x'.repeat(200).concat('\n').repeat(20_000));
    writeFileSync(join(dir, 'b-small.ts'), 'console.log("leak");\n');
    git('add', '-A');
    const diff = await cappedDiff({ gitDir: join(dir, '.git'), workTree: dir }, ['diff', '--cached', '--no-color', base], {}, 256 * 1024, 16 * 1024);
    expect(diff.truncated).toBe(true);
    expect(diff.bytes).toBeGreaterThan(4_000_000);
    expect(Buffer.byteLength(diff.text)).toBeLessThan(40 * 1024);
    expect(diff.text).toContain('diff --git a/a-huge.txt b/a-huge.txt');
    expect(diff.text).toContain('+console.log("leak");');
  });
});
