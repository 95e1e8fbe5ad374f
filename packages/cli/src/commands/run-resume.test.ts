import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { readRunFileStrict } from '@holdfast/lab/store';
import { memoryIo } from '@holdfast/core/test-support';

const SHIPPED = fileURLToPath(new URL('../../../../runs/demo/replies.json', import.meta.url));
const TASKS = 'skip-flaky-ci,bump-date-fns';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-resume-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Replies of a target the shipped demo replies do not have: a resume that reads the shipped file cannot play it. */
function ownReplies(): string {
  const shipped = JSON.parse(readFileSync(SHIPPED, 'utf8')) as { replies: { target: string }[] };
  const replies = shipped.replies.filter((reply) => reply.target === 'demo-hasty').map((reply) => ({ ...reply, target: 'mine' }));
  const path = join(dir, 'my-replies.json');
  writeFileSync(path, JSON.stringify({ ...shipped, replies }));
  return path;
}

/** The run file as an interrupted run leaves it: the last round's arm-ends, the totals and the run-end never written. */
function interrupt(path: string): void {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const types = lines.map((line) => (JSON.parse(line) as { type: string }).type);
  const lastRoundStart = types.lastIndexOf('round-start');
  writeFileSync(path, `${lines.slice(0, lastRoundStart + 1).join('\n')}\n`);
}

describe('holdfast run --resume', () => {
  it('finishes a run made with --replies FILE from that same file', async () => {
    const replies = ownReplies();
    const out = join(dir, 'run.jsonl');
    expect(await main(['run', '--replies', replies, '--targets', 'mine', '--tasks', TASKS, '--out', out], memoryIo({ cwd: dir }))).toBe(0);
    interrupt(out);
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--resume', out], io), io.err()).toBe(0);
    const events = await readRunFileStrict(out);
    const start = events[0]!;
    if (start.type !== 'run-start') throw new Error('the file does not start with its run-start');
    const planned = start.config.targets.length * start.config.tasks.length * start.config.reps;
    const arms = new Set(events.flatMap((event) => (event.type === 'arm-end' ? [`${event.roundId}/${event.result.arm}`] : [])));
    expect(arms.size).toBe(planned * 2);
    expect(events.at(-1)?.type === 'run-end' && events.at(-1)).toMatchObject({ status: 'completed' });
  });

  it('records the shipped replies by their name, so the run file resumes wherever holdfast is installed', async () => {
    const out = join(dir, 'run.jsonl');
    expect(await main(['run', '--replies', 'demo', '--targets', 'demo-hasty', '--tasks', TASKS, '--out', out], memoryIo({ cwd: dir }))).toBe(0);
    const start = (await readRunFileStrict(out))[0]!;
    expect(start.type === 'run-start' && start.config.repliesOf).toBe('demo');
    interrupt(out);
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--resume', out], io), io.err()).toBe(0);
    expect((await readRunFileStrict(out)).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });

  it('changes nothing when the file is already complete', async () => {
    const out = join(dir, 'run.jsonl');
    expect(await main(['run', '--replies', ownReplies(), '--targets', 'mine', '--tasks', TASKS, '--out', out], memoryIo({ cwd: dir }))).toBe(0);
    const before = readFileSync(out, 'utf8');
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--resume', out], io)).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(io.err()).toMatch(/is complete/);
  });

  it('names the versions when the file was written by a newer holdfast', async () => {
    const out = join(dir, 'run.jsonl');
    expect(await main(['run', '--replies', ownReplies(), '--targets', 'mine', '--tasks', TASKS, '--out', out], memoryIo({ cwd: dir }))).toBe(0);
    const [first, ...rest] = readFileSync(out, 'utf8').split('\n');
    writeFileSync(out, [JSON.stringify({ ...(JSON.parse(first!) as object), version: 99 }), ...rest].join('\n'));
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--resume', out], io)).toBe(2);
    expect(io.err()).toMatch(/format version 99; this holdfast reads versions 1, 2 and 3/);
    expect(io.err()).not.toMatch(/no run-start/);
    // report refuses it alike, instead of printing numbers read from a format it does not know.
    const report = memoryIo({ cwd: dir });
    expect(await main(['report', out], report)).toBe(2);
    expect(report.err()).toMatch(/format version 99; this holdfast reads versions 1, 2 and 3/);
    expect(report.out()).toBe('');
  });
});
