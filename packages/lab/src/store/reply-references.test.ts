import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORED_REPLY_BYTES } from '@holdfast/core/contract';
import type { ArmEndEvent, ArmResult, RunEvent } from '@holdfast/core/contract';
import { openRunFile } from './run-file-writer.js';
import type { RunEventDraft } from './run-file-writer.js';
import { readRunFile } from './read-run-file.js';
import { reduceRunEvents } from './run-state.js';
import { computeTotals } from './totals.js';
import { cleanArm, key, runStart } from './test-support/events.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-reply-refs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const BIG = `{"actions":[{"type":"write","path":"src/a.ts","content":"${'y'.repeat(200_000)}"}]} sk-test-0123456789abcdef`;

function withReply(arm: 'told' | 'held', raw: string): ArmResult {
  return { ...cleanArm(arm), generation: { raw, usage: {}, latencyMs: 1, attempts: 1 } };
}

function draftsOf(told: string, held: string, roundId = 'r1'): RunEventDraft[] {
  const round = key(roundId);
  return [
    { type: 'round-start', runId: 'run-1', ...round },
    { type: 'arm-end', runId: 'run-1', ...round, result: withReply('told', told) },
    { type: 'arm-end', runId: 'run-1', ...round, result: withReply('held', held) },
  ];
}

function write(path: string, drafts: readonly RunEventDraft[], secrets: readonly string[] = []): RunEvent[] {
  const writer = openRunFile(path, { secrets });
  const { seq: _seq, time: _time, ...start } = runStart();
  try {
    return [writer.append(start as RunEventDraft), ...drafts.map((draft) => writer.append(draft))];
  } finally {
    writer.close();
  }
}

const arms = (events: readonly RunEvent[]) => events.filter((event): event is ArmEndEvent => event.type === 'arm-end');

describe('a reply both arms of a round gave', () => {
  it('is stored once: the second arm-end refers to the first, and every reader gets it back whole', async () => {
    const path = join(dir, 'run.jsonl');
    const handed = write(path, draftsOf(BIG, BIG));
    expect(statSync(path).size).toBeLessThan(BIG.length * 1.2);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { result?: { generation?: { raw: string; rawSameAs?: string } } });
    expect(lines[3]?.result?.generation).toMatchObject({ raw: '', rawSameAs: 'told' });
    // What the writer hands back (SSE, progress) is whole, like what the readers restore.
    for (const events of [handed, (await readRunFile(path)).events]) {
      expect(arms(events).map((event) => event.result.generation)).toEqual([
        { raw: BIG, usage: {}, latencyMs: 1, attempts: 1 },
        { raw: BIG, usage: {}, latencyMs: 1, attempts: 1 },
      ]);
    }
    const state = reduceRunEvents((await readRunFile(path)).events);
    expect(state.rounds.at(0)?.held?.generation?.raw).toBe(BIG);
    expect(computeTotals(state).arms.map((arm) => arm.rounds)).toEqual(computeTotals(reduceRunEvents(handed)).arms.map((arm) => arm.rounds));
  });

  it('keeps redaction: the reference is restored with the redacted text, never the key', async () => {
    const path = join(dir, 'run.jsonl');
    const handed = write(path, draftsOf(BIG, BIG), ['sk-test-0123456789abcdef']);
    expect(readFileSync(path, 'utf8')).not.toContain('sk-test-0123456789abcdef');
    for (const events of [handed, (await readRunFile(path)).events]) {
      for (const { result } of arms(events)) expect(result.generation?.raw.endsWith(' [redacted]')).toBe(true);
    }
  });

  it('stores different replies each in full, and reads files written before references existed', async () => {
    const path = join(dir, 'run.jsonl');
    write(path, [...draftsOf(BIG, `${BIG} `), ...draftsOf('same', 'same', 'r2')]);
    const events = (await readRunFile(path)).events;
    expect(arms(events).map((event) => event.result.generation?.raw.length)).toEqual([BIG.length, BIG.length + 1, 4, 4]);
    expect(readFileSync(path, 'utf8').split('y'.repeat(200_000)).length - 1).toBe(2);
    expect(arms(events).every((event) => event.result.generation?.rawSameAs === undefined)).toBe(true);
  });

  it('a round played again (a resumed run retries it) refers only within the new try', async () => {
    const path = join(dir, 'run.jsonl');
    const round = key('r1');
    write(path, [
      { type: 'round-start', runId: 'run-1', ...round },
      { type: 'arm-end', runId: 'run-1', ...round, result: withReply('told', 'first try') },
      ...draftsOf('second try', 'second try'),
    ]);
    const events = (await readRunFile(path)).events;
    expect(arms(events).map((event) => event.result.generation?.raw)).toEqual(['first try', 'second try', 'second try']);
  });
});

describe('a reply larger than a run file keeps', () => {
  // Only a raised reply cap lets one through: 3 MB, three times what the file keeps of it.
  const HUGE = `{"actions":[]} ${'z'.repeat(3 * STORED_REPLY_BYTES)}`;

  it('is stored up to STORED_REPLY_BYTES with its whole size, once for both arms, and read back so', async () => {
    const path = join(dir, 'run.jsonl');
    const handed = write(path, draftsOf(HUGE, HUGE));
    expect(statSync(path).size).toBeLessThan(STORED_REPLY_BYTES * 1.1);
    for (const events of [handed, (await readRunFile(path)).events]) {
      for (const { result } of arms(events)) {
        expect(result.generation?.raw).toBe(HUGE.slice(0, STORED_REPLY_BYTES));
        expect(result.generation?.rawBytes).toBe(Buffer.byteLength(HUGE));
        expect(result.generation?.rawSameAs).toBeUndefined();
      }
    }
  });

  it('different in each arm: each is cut and sized on its own', async () => {
    const path = join(dir, 'run.jsonl');
    write(path, draftsOf(HUGE, `${HUGE}!`));
    const generations = arms((await readRunFile(path)).events).map((event) => event.result.generation);
    expect(generations.map((generation) => generation?.rawBytes)).toEqual([HUGE.length, HUGE.length + 1]);
    expect(statSync(path).size).toBeLessThan(STORED_REPLY_BYTES * 2.1);
  });
});
