import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnToEnd } from './spawn-sync.js';

const folder = mkdtempSync(join(tmpdir(), 'holdfast-spawn-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const env = { ...process.env, HOLDFAST_SPAWN_PROBE: 'seen' };
const options = { cwd: folder, env, maxBuffer: 1024 * 1024 };

describe('spawnToEnd', () => {
  it('gives what child_process.spawnSync gives: status, stdout, stderr, with stdin, cwd and environment passed', () => {
    const script = 'read line; printf "%s|%s|%s" "$line" "$PWD" "$HOLDFAST_SPAWN_PROBE"; printf oops >&2; exit 3';
    const ours = spawnToEnd('sh', ['-c', script], { ...options, input: 'hello\n' });
    const theirs = spawnSync('sh', ['-c', script], { ...options, input: 'hello\n' });
    expect(ours.error).toBeUndefined();
    expect(ours.status).toBe(3);
    expect(ours.stdout.toString()).toBe(`hello|${folder}|seen`);
    expect(ours.stderr.toString()).toBe('oops');
    expect([ours.status, ours.stdout, ours.stderr]).toEqual([theirs.status, theirs.stdout, theirs.stderr]);
  });

  it("runs in this process's folder when no folder is given", () => {
    const ours = spawnToEnd('sh', ['-c', 'printf %s "$PWD"'], { env, maxBuffer: 1024 });
    expect(ours.stdout.toString()).toBe(process.cwd());
  });

  it('runs git found on PATH and reads its output', () => {
    const ours = spawnToEnd('git', ['--version'], options);
    expect(ours.status).toBe(0);
    expect(ours.stdout.toString()).toMatch(/^git version \d+\.\d+/);
  });

  it('says a program that does not exist could not start (ENOENT), as an error', () => {
    const ours = spawnToEnd('holdfast-no-such-program', [], options);
    expect(ours.error).toMatchObject({ code: 'ENOENT' });
  });

  it('stops a program whose output outgrows maxBuffer and says so', () => {
    const ours = spawnToEnd('sh', ['-c', 'head -c 100000 /dev/zero'], { ...options, maxBuffer: 1000 });
    expect(ours.error).toMatchObject({ code: 'ENOBUFS' });
  });
});
