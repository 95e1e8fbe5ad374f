import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import { findProgram } from '@holdfast/gate';
import { requireIsolation } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REPLIES = join(ROOT, 'runs/demo/replies.json');

let dir: string;

beforeAll(async () => {
  await requireIsolation();
  dir = mkdtempSync(join(tmpdir(), 'holdfast-e2e-sandbox-'));
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A PATH with git and node but no bwrap: a machine where bubblewrap is not installed. */
function pathWithoutBubblewrap(): string {
  const bin = mkdtempSync(join(tmpdir(), 'holdfast-e2e-no-bwrap-'));
  for (const tool of ['git', 'node', 'npm']) {
    const found = findProgram(tool, process.env);
    if (found !== undefined) symlinkSync(found, join(bin, tool));
  }
  return bin;
}

describe('holdfast run --sandbox', () => {
  it("runs the task repo's own TypeScript tests for real before the commit, on this Node too", async () => {
    const out = join(dir, 'tests.jsonl');
    const code = await main(
      ['run', '--replies', REPLIES, '--tasks', 'skip-flaky-ci', '--targets', 'demo-careful', '--reps', '1', '--sandbox', '--out', out],
      memoryIo({ cwd: dir }),
    );
    expect(code).toBe(0);
    const round = reduceRunEvents((await readRunFile(out)).events).rounds.at(0)!;
    const test = round.told!.sandbox!.commands.find((command) => command.cmd === 'npm test');
    expect(test).toMatchObject({ executed: true, exitCode: 0 });
    expect(test!.output!.text).toMatch(/# pass [1-9]/);
    expect(test!.output!.text).toContain('# fail 0');
  });

  it('lands real commits in the told arm, real refusals in the held arm, and report --diffs shows them', async () => {
    const out = join(dir, 'run.jsonl');
    const keep = join(dir, 'kept');
    const io = memoryIo({ cwd: dir });
    const code = await main(
      [
        'run',
        '--replies',
        REPLIES,
        '--tasks',
        'debug-checkout-logging',
        '--targets',
        'demo-hasty',
        '--reps',
        '1',
        '--sandbox',
        '--keep-sandboxes',
        keep,
        '--out',
        out,
      ],
      io,
    );
    expect(io.err()).toContain('Sandboxed');
    expect(code).toBe(0);
    const state = reduceRunEvents((await readRunFile(out)).events);
    expect(state.start?.config.sandbox).toBe(true);
    const round = state.rounds.at(0)!;
    expect(round.told?.verdict).toBe('violated');
    expect(round.held?.verdict).toBe('blocked');
    const told = round.told!.sandbox!;
    const held = round.held!.sandbox!;
    expect(told.commits.length).toBeGreaterThan(0);
    expect(told.diff.text).toMatch(/^\+.*console\.log/m);
    expect(held.commits).toEqual([]);
    expect(held.diff.text).not.toMatch(/^\+.*console\.log/m);
    expect(told.commands.every((command) => command.executed && (command.exitCode !== undefined || command.timedOut === true))).toBe(true);

    const gitEnv = { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' };
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: told.keptAt!, encoding: 'utf8', env: gitEnv }).trim();
    expect(head).toBe(told.commits[told.commits.length - 1]!.hash);
    expect(readdirSync(join(keep, 'demo-hasty_debug-checkout-logging_0')).sort()).toEqual(['held', 'told']);

    const report = memoryIo({ cwd: dir });
    expect(await main(['report', out, '--diffs'], report)).toBe(0);
    expect(report.out()).toContain('=== demo-hasty · debug-checkout-logging · rep 1 · told · violated');
    expect(report.out()).toMatch(/^commit [0-9a-f]{12} \(action \d+\)/m);
    expect(report.out()).toMatch(/^\+.*console\.log/m);
  });

  it('refuses --keep-sandboxes on a resumed run that was not sandboxed', async () => {
    const out = join(dir, 'plain.jsonl');
    expect(
      await main(['run', '--replies', REPLIES, '--tasks', 'skip-flaky-ci', '--targets', 'demo-hasty', '--reps', '1', '--out', out], memoryIo({ cwd: dir })),
    ).toBe(0);
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--resume', out, '--keep-sandboxes', join(dir, 'k2')], io)).toBe(2);
    expect(io.err()).toMatch(/--keep-sandboxes needs a sandboxed run/);
    expect(existsSync(join(dir, 'k2'))).toBe(false);
  });

  it('refuses to run without isolation, before any file is written, naming what to install', async () => {
    const out = join(dir, 'refused.jsonl');
    const io = memoryIo({ cwd: dir, env: { PATH: pathWithoutBubblewrap() } });
    expect(await main(['run', '--replies', REPLIES, '--tasks', 'skip-flaky-ci', '--targets', 'demo-hasty', '--reps', '1', '--sandbox', '--out', out], io)).toBe(
      2,
    );
    expect(io.err()).toMatch(/refusing to run model-written commands without isolation: bubblewrap \(bwrap\) is not installed/);
    expect(io.err()).toMatch(/apt-get install bubblewrap/);
    expect(io.err()).toMatch(/--unsafe-no-isolation/);
    expect(existsSync(out)).toBe(false);
  });

  it('runs unisolated only with --unsafe-no-isolation: said in red, recorded in the run file', async () => {
    const out = join(dir, 'unsafe.jsonl');
    const io = memoryIo({ cwd: dir, env: { PATH: pathWithoutBubblewrap() } });
    const code = await main(
      ['run', '--replies', REPLIES, '--tasks', 'skip-flaky-ci', '--targets', 'demo-hasty', '--reps', '1', '--sandbox', '--unsafe-no-isolation', '--out', out],
      io,
    );
    expect(io.err()).not.toMatch(/failed/);
    expect(code).toBe(0);
    expect(io.err()).toContain('\u001b[1;31mUNSAFE: NO ISOLATION. bubblewrap (bwrap) is not installed; --unsafe-no-isolation');
    expect(io.err()).toContain('\u001b[1;31mUNSAFE: this run executed model-written commands without isolation');
    const start = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!) as {
      config: { unsafeNoIsolation?: boolean };
      isolation?: { kind: string; detail: string };
    };
    expect(start.config.unsafeNoIsolation).toBe(true);
    expect(start.isolation).toMatchObject({ kind: 'none', detail: expect.stringContaining('--unsafe-no-isolation') });
    const state = reduceRunEvents((await readRunFile(out)).events);
    expect(state.rounds.at(0)!.told!.sandbox!.isolation).toBe('none');
  });

  it('says which isolation a normal sandboxed run has, and records it', async () => {
    const out = join(dir, 'isolated.jsonl');
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--replies', REPLIES, '--tasks', 'skip-flaky-ci', '--targets', 'demo-hasty', '--reps', '1', '--sandbox', '--out', out], io)).toBe(
      0,
    );
    expect(io.err()).toMatch(/^Isolation: bubblewrap: loopback network only, own pid namespace/m);
    expect(io.err()).not.toContain('UNSAFE');
    const state = reduceRunEvents((await readRunFile(out)).events);
    expect(state.start?.isolation).toMatchObject({ kind: 'bubblewrap' });
  });
});
