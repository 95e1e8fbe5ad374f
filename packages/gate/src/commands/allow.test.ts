import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from '../test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import type { MemoryIo } from '@holdfast/core/test-support';
import { run } from './allow.js';

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-allow-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

/** The same in-memory streams, marked as a terminal the way Node marks process.stdin/stdout on a TTY. */
function terminal(io: MemoryIo, which: { stdin: boolean; stdout: boolean }): MemoryIo {
  Object.assign(io.stdin, { isTTY: which.stdin });
  Object.assign(io.stdout, { isTTY: which.stdout });
  return io;
}

describe('holdfast allow', () => {
  it.each([
    [false, false],
    [true, false],
    [false, true],
  ])('refuses plainly unless stdin (%s) and stdout (%s) are both a terminal', async (stdin, stdout) => {
    const root = repo();
    const io = terminal(memoryIo({ cwd: root }), { stdin, stdout });
    expect(await main(['allow', '--once'], io)).toBe(1);
    expect(io.err()).toMatch(/only runs at an interactive terminal \(stdin and stdout must both be a TTY\)/);
    expect(() => readFileSync(join(root, '.holdfast', 'allow.json'))).toThrow();
  });

  it('refuses in a shell an agent started, even on a terminal', async () => {
    const io = terminal(memoryIo({ cwd: repo(), env: { CLAUDECODE: '1' } }), { stdin: true, stdout: true });
    expect(await main(['allow', '--once'], io)).toBe(1);
    expect(io.err()).toMatch(/started by a coding agent \(CLAUDECODE is set\)/);
  });

  it('writes a one-time allowance at the repository root, expiring 10 minutes after the clock', async () => {
    const root = repo();
    const io = terminal(memoryIo({ cwd: root }), { stdin: true, stdout: true });
    expect(await run(['--once', '--rule', 'R2', '--reason', 'the docs change is mine'], io, () => new Date('2026-11-30T12:00:00.000Z'))).toBe(0);
    expect(JSON.parse(readFileSync(join(root, '.holdfast', 'allow.json'), 'utf8'))).toEqual({
      version: 1,
      rule: 'R2',
      reason: 'the docs change is mine',
      created: '2026-11-30T12:00:00.000Z',
      expires: '2026-11-30T12:10:00.000Z',
    });
    expect(io.out()).toMatch(/for R2 goes ahead once, until 2026-11-30T12:10:00\.000Z/);
  });

  it('needs --once', async () => {
    const io = terminal(memoryIo({ cwd: repo() }), { stdin: true, stdout: true });
    expect(await main(['allow'], io)).toBe(2);
    expect(io.err()).toMatch(/say --once/);
  });
});
