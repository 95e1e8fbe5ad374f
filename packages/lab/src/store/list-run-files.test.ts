import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRunFiles } from './list-run-files.js';
import { key, roundStart, runStart } from './test-support/events.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-list-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

const TIME = '2025-01-01T00:00:00.000Z';

describe('listRunFiles', () => {
  it('summarizes each run file from its first and last lines, newest first', async () => {
    const done = join(dir, 'done.jsonl');
    writeFileSync(done, line(runStart({ runId: 'run-done', targets: ['a', 'b'], tasks: ['t1', 't2', 't3'], reps: 5, demo: 'hand-written' })));
    appendFileSync(done, line(roundStart(1, key('r1'))));
    appendFileSync(done, line({ type: 'run-end', seq: 2, time: TIME, runId: 'run-done', status: 'completed' }));
    appendFileSync(done, '\n\n');
    const crashed = join(dir, 'crashed.jsonl');
    writeFileSync(crashed, line(runStart({ runId: 'run-crashed' })));
    appendFileSync(crashed, line({ type: 'run-end', seq: 1, time: TIME, runId: 'run-crashed', status: 'completed' }).slice(0, 30));
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'notes.txt'), 'not a run');
    mkdirSync(join(dir, 'folder.jsonl'));
    utimesSync(done, new Date('2025-01-03'), new Date('2025-01-03'));
    utimesSync(crashed, new Date('2025-01-02'), new Date('2025-01-02'));
    utimesSync(join(dir, 'empty.jsonl'), new Date('2025-01-01'), new Date('2025-01-01'));

    const summaries = await listRunFiles(dir);
    expect(summaries.map((summary) => summary.name)).toEqual(['done.jsonl', 'crashed.jsonl', 'empty.jsonl']);
    expect(summaries[0]).toMatchObject({ path: done, runId: 'run-done', status: 'completed', demo: 'hand-written', rounds: 30, started: TIME });
    expect(summaries[0]?.size).toBeGreaterThan(0);
    expect(summaries[1]).toMatchObject({ runId: 'run-crashed', status: 'incomplete', rounds: 2 });
    expect(summaries[1]).not.toHaveProperty('demo');
    expect(summaries[2]).toEqual({ name: 'empty.jsonl', path: join(dir, 'empty.jsonl'), size: 0, mtime: new Date('2025-01-01') });
  });

  it('reads first and last lines longer than one read chunk', async () => {
    const path = join(dir, 'big.jsonl');
    const start = runStart({ runId: 'big' }) as ReturnType<typeof runStart> & { tasks: { files: Record<string, string> }[] };
    start.tasks[0]!.files['src/huge.ts'] = 'x'.repeat(200_000);
    writeFileSync(path, line(start));
    appendFileSync(path, line({ type: 'run-end', seq: 1, time: TIME, runId: 'big', status: 'failed', reason: 'y'.repeat(150_000) }));
    const [summary] = await listRunFiles(dir);
    expect(summary).toMatchObject({ runId: 'big', status: 'failed', rounds: 2 });
  });

  it('lists a missing folder as empty', async () => {
    expect(await listRunFiles(join(dir, 'nope'))).toEqual([]);
  });
});
