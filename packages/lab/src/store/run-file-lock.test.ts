import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockPathOf, lockRunFile, refuseIfLocked, RunFileLockedError } from './run-file-lock.js';
import { openRunFile } from './run-file-writer.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('one writer per run file', () => {
  it('refuses a second writer while the first has the file open, naming its pid, and frees the file on close', () => {
    const path = join(dir, 'a.jsonl');
    const first = openRunFile(path);
    expect(readFileSync(lockPathOf(path), 'utf8')).toBe(`${process.pid}\n`);
    let refusal: unknown;
    try {
      openRunFile(path);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(RunFileLockedError);
    expect(refusal).toMatchObject({ code: 'E_RUN_FILE_LOCKED', holder: process.pid });
    expect((refusal as Error).message).toContain(`being written by process ${process.pid}`);
    first.close();
    expect(existsSync(lockPathOf(path))).toBe(false);
    openRunFile(path).close();
  });

  it('refuses early for a live holder and lets a free or stale lock be, without taking it', () => {
    const path = join(dir, 'early.jsonl');
    expect(() => refuseIfLocked(path)).not.toThrow();
    const held = lockRunFile(path);
    expect(() => refuseIfLocked(path)).toThrow(RunFileLockedError);
    expect(() => refuseIfLocked(path, () => false)).not.toThrow();
    expect(readFileSync(lockPathOf(path), 'utf8')).toBe(`${process.pid}\n`);
    held.release();
  });

  it('takes over a lock whose process no longer runs', () => {
    const path = join(dir, 'stale.jsonl');
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(lockPathOf(path), `${dead}\n`);
    const lock = lockRunFile(path, { isAlive: (pid) => pid !== dead });
    expect(readFileSync(lockPathOf(path), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
  });

  it('takes over an empty lock (its writer died creating it) and one holding garbage', () => {
    const path = join(dir, 'empty.jsonl');
    for (const content of ['', 'not a pid\n']) {
      writeFileSync(lockPathOf(path), content);
      lockRunFile(path).release();
    }
  });
});
