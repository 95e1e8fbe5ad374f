import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEventDraft } from './run-file-writer.js';
import { RunFileDiskError, openRunFile } from './run-file-writer.js';
import { readRunFileStrict } from './read-run-file.js';
import { key, runStart } from './test-support/events.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-disk-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function startDraft(): RunEventDraft {
  const { seq: _seq, time: _time, ...draft } = runStart();
  return draft as RunEventDraft;
}

const round = (roundId: string): RunEventDraft => ({ type: 'round-start', runId: 'run-1', ...key(roundId) });

/** A disk that takes `room` more bytes, then answers ENOSPC: the last line it takes is torn. */
function fillingDisk(room: number) {
  let left = room;
  return (descriptor: number, buffer: Buffer, offset: number, length: number): number => {
    if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    const taken = Math.min(left, length);
    left -= taken;
    return writeSync(descriptor, buffer, offset, taken);
  };
}

describe('a run file on a full disk', () => {
  it('is a RunFileDiskError naming the file and the way to finish, and a resume after freeing space loses nothing', async () => {
    const path = join(dir, 'run.jsonl');
    const writer = openRunFile(path, { writeSync: fillingDisk(2_000) });
    writer.append(startDraft());
    let failure: unknown;
    try {
      for (let index = 0; index < 100; index++) writer.append(round(`r${index}`));
    } catch (error) {
      failure = error;
    }
    writer.close();
    expect(failure).toBeInstanceOf(RunFileDiskError);
    const error = failure as RunFileDiskError;
    expect(error.code).toBe('E_RUN_FILE_NO_SPACE');
    expect(error.message).toContain(path);
    expect(error.message).toContain(`holdfast run --resume ${path}`);

    // Space freed: the torn line is cut, and the events continue after the last complete one.
    const resumed = openRunFile(path);
    expect(resumed.recovery.tornTail).toBeDefined();
    const kept = resumed.recovery.lastSeq!;
    resumed.append(round('after'));
    resumed.close();
    const events = await readRunFileStrict(path);
    expect(events.map((event) => event.seq)).toEqual([...Array.from({ length: kept + 1 }, (_, seq) => seq), kept + 1]);
  });

  it('is a RunFileDiskError when the file may not be written', () => {
    const path = join(dir, 'run.jsonl');
    const refuse = () => {
      throw Object.assign(new Error('EACCES: permission denied, write'), { code: 'EACCES' });
    };
    const writer = openRunFile(path, { writeSync: refuse });
    expect(() => writer.append(startDraft())).toThrow(RunFileDiskError);
    expect(() => writer.append(startDraft())).toThrow(/may not write it \(EACCES\)\. Nothing of the run was recorded/);
    writer.close();
  });
});
