import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import { readRunFile } from '@holdfast/lab/store';
import { memoryIo } from '@holdfast/core/test-support';

// One human numbering of repetitions: what a person reads counts from 1 (terminal, reports, the web
// page's `rep 1`); the run file's `rep` field and round ids count from 0, as they always have.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = join(ROOT, 'runs/example.jsonl');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-reps-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('repetition numbering', () => {
  it('the terminal progress and the report count reps from 1; the run file keeps rep 0', async () => {
    const out = join(dir, 'two-reps.jsonl');
    const run = memoryIo({ cwd: dir });
    const code = await main(['run', '--replay', EXAMPLE, '--targets', 'demo-careful', '--tasks', 'bump-date-fns', '--reps', '2', '--out', out], run);
    expect(code, run.err()).toBe(0);
    expect(run.err()).toContain('demo-careful · bump-date-fns · rep 1: told');
    expect(run.err()).toContain('demo-careful · bump-date-fns · rep 2: told');
    expect(run.err()).not.toMatch(/bump-date-fns\/[01]/);
    const ends = (await readRunFile(out)).events.filter((event) => event.type === 'arm-end');
    expect(new Set(ends.map((event) => (event.type === 'arm-end' ? `${event.roundId} ${event.rep}` : '')))).toEqual(
      new Set(['demo-careful/bump-date-fns/0 0', 'demo-careful/bump-date-fns/1 1']),
    );

    const report = memoryIo({ cwd: dir });
    expect(await main(['report', out, '--diffs'], report)).toBe(0);
    expect(report.out()).toContain('=== demo-careful · bump-date-fns · rep 1 · told');
    expect(report.out()).toContain('=== demo-careful · bump-date-fns · rep 2 · held');
    const junit = memoryIo({ cwd: dir });
    expect(await main(['report', out, '--format', 'junit'], junit)).toBe(0);
    expect(junit.out()).toContain('name="bump-date-fns #1"');
  });
});
