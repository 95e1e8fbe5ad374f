import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunEventSchema } from '@holdfast/core/contract';
import type { RunEventDraft } from './run-file-writer.js';
import { openRunFile, RunFileWriteError } from './run-file-writer.js';
import { readRunFile } from './read-run-file.js';
import { cleanArm, key, runStart } from './test-support/events.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const fixedNow = () => new Date('2025-03-04T05:06:07.000Z');

function startDraft(): RunEventDraft {
  const { seq: _seq, time: _time, ...draft } = runStart();
  return draft as RunEventDraft;
}

function roundDraft(roundId: string): RunEventDraft {
  return { type: 'round-start', runId: 'run-1', ...key(roundId) };
}

describe('openRunFile', () => {
  it('creates the folders, stamps seq from 0 and the time, and writes each event as it happens', async () => {
    const path = join(dir, 'nested', 'runs', 'a.jsonl');
    const writer = openRunFile(path, { now: fixedNow });
    expect(writer.recovery).toEqual({ lastSeq: null });
    const first = writer.append(startDraft());
    expect(first).toMatchObject({ type: 'run-start', seq: 0, time: '2025-03-04T05:06:07.000Z' });
    // On disk before close: a crash now would lose nothing.
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(first)}\n`);
    const second = writer.append({ ...roundDraft('r1'), time: '2025-01-01T00:00:00.000Z' });
    expect(second).toMatchObject({ seq: 1, time: '2025-01-01T00:00:00.000Z' });
    expect(writer.nextSeq).toBe(2);
    writer.close();
    expect(await readRunFile(path)).toEqual({ events: [first, second], problems: [] });
  });

  it('continues the seq when reopened for resume', async () => {
    const path = join(dir, 'resume.jsonl');
    const writer = openRunFile(path, { now: fixedNow });
    writer.append(startDraft());
    writer.append(roundDraft('r1'));
    writer.close();
    const resumed = openRunFile(path, { now: fixedNow });
    expect(resumed.recovery).toEqual({ lastSeq: 1 });
    expect(resumed.append(roundDraft('r2')).seq).toBe(2);
    resumed.close();
    expect((await readRunFile(path)).events.map((event) => event.seq)).toEqual([0, 1, 2]);
  });

  it("continues after the highest seq, not the last line's, and ignores a seq no run can reach", async () => {
    const path = join(dir, 'out-of-order.jsonl');
    const writer = openRunFile(path, { now: fixedNow });
    writer.append(startDraft());
    writer.append(roundDraft('r1'));
    const second = writer.append(roundDraft('r2'));
    writer.close();
    appendFileSync(path, `${JSON.stringify({ ...second, seq: 1 })}\n${JSON.stringify({ ...second, seq: 2 ** 53 })}\n`);
    const resumed = openRunFile(path, { now: fixedNow });
    expect(resumed.recovery).toEqual({ lastSeq: 2 });
    expect(resumed.append(roundDraft('r3')).seq).toBe(3);
    resumed.close();
    expect((await readRunFile(path)).problems.map((problem) => problem.kind)).toEqual(['seq', 'seq']);
  });

  it('resumes a file saved with a byte order mark', () => {
    const path = join(dir, 'bom.jsonl');
    writeFileSync(path, `\uFEFF${JSON.stringify(runStart())}\n`);
    const resumed = openRunFile(path, { now: fixedNow });
    expect(resumed.recovery).toEqual({ lastSeq: 0 });
    resumed.close();
  });

  it('cuts a torn last line on resume so it cannot poison the next event', async () => {
    const path = join(dir, 'torn.jsonl');
    const writer = openRunFile(path, { now: fixedNow });
    writer.append(startDraft());
    writer.append(roundDraft('r1'));
    writer.close();
    appendFileSync(path, '{"type":"arm-end","seq":2,"ti');
    expect((await readRunFile(path)).problems.map((problem) => problem.kind)).toEqual(['torn']);
    const resumed = openRunFile(path, { now: fixedNow });
    expect(resumed.recovery).toEqual({ lastSeq: 1, tornTail: { line: 3, characters: 29 } });
    resumed.append(roundDraft('r2'));
    resumed.close();
    const { events, problems } = await readRunFile(path);
    expect(problems).toEqual([]);
    expect(events.map((event) => event.seq)).toEqual([0, 1, 2]);
  });

  it('terminates a complete last line that lacks its newline instead of cutting it', async () => {
    const path = join(dir, 'unterminated.jsonl');
    const event = RunEventSchema.parse(runStart());
    writeFileSync(path, JSON.stringify(event));
    const writer = openRunFile(path, { now: fixedNow });
    expect(writer.recovery).toEqual({ lastSeq: 0 });
    writer.append(roundDraft('r1'));
    writer.close();
    expect((await readRunFile(path)).events.map((each) => each.type)).toEqual(['run-start', 'round-start']);
  });

  it('refuses an invalid event and writes nothing', () => {
    const path = join(dir, 'invalid.jsonl');
    const writer = openRunFile(path, { now: fixedNow });
    const bad = { type: 'arm-end', runId: 'run-1', ...key('r1'), result: { ...cleanArm('told'), verdict: 'fine' } } as unknown as RunEventDraft;
    expect(() => writer.append(bad)).toThrow(RunFileWriteError);
    expect(() => writer.append(bad)).toThrow(/field result\.verdict: expected one of clean/);
    expect(writer.nextSeq).toBe(0);
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('never writes a key: unknown properties are dropped and known secret values redacted', () => {
    const path = join(dir, 'keys.jsonl');
    const secret = 'sk-or-v1-0123456789abcdef';
    const writer = openRunFile(path, { now: fixedNow, secrets: [secret, 'short'] });
    const draft = startDraft() as RunEventDraft & { config: Record<string, unknown> };
    const leaky = { ...draft, apiKey: secret, config: { ...draft.config, authorization: `Bearer ${secret}` } } as unknown as RunEventDraft;
    const written = writer.append(leaky);
    writer.append({ type: 'run-end', runId: 'run-1', status: 'failed', reason: `provider said: bad key ${secret} (short)` });
    writer.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/apiKey|authorization/);
    expect(text).toContain('bad key [redacted] (short)');
    expect(written).not.toHaveProperty('apiKey');
  });

  it('refuses to append after close', () => {
    const writer = openRunFile(join(dir, 'closed.jsonl'));
    writer.close();
    writer.close();
    expect(() => writer.append(roundDraft('r1'))).toThrow(/closed/);
  });
});
