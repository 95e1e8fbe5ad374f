import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

// `run --installed-in DIR` is refused, with the fix, wherever it could not reach the arms' trials.
// (test/e2e/sandbox-run-commit-task.test.ts plays it for real.)

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'holdfast-installed-in-'));
  dirs.push(cwd);
  const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const code = await main(['run', '--replies', 'demo', '--tasks', 'skip-flaky-ci', '--targets', 'demo-hasty', '--reps', '1', ...args], io);
  return { code, err: io.err(), cwd };
}

describe('holdfast run --installed-in', () => {
  it('needs --sandbox in plan mode, not with --node-modules, and a folder that exists', async () => {
    const unsandboxed = await cli('--installed-in', tmpdir());
    expect(unsandboxed.code).toBe(2);
    expect(unsandboxed.err).toMatch(/--installed-in binds a repository's installed dependency folders into plan-mode sandboxes .*give --sandbox/);
    const both = await cli('--sandbox', '--installed-in', tmpdir(), '--node-modules', tmpdir());
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--installed-in and --node-modules both give the arms their dependencies; give one of them/);
    const missing = await cli('--sandbox', '--installed-in', 'no-such-repo');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--installed-in \/.*\/no-such-repo does not exist; pass the repository the tasks were made from/);
  });

  it('is in the help', async () => {
    const io = memoryIo();
    expect(await main(['run', '--help'], io)).toBe(0);
    expect(io.out()).toMatch(/--installed-in DIR {5}with --sandbox \(plan mode\), the repository the tasks were made from/);
  });
});
