import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { lockRunFile } from '@holdfast/lab/store';
import { main } from '../main.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('holdfast run --resume and the run file lock', () => {
  it('a second `holdfast run --resume` of a file being written refuses with exit 2 and the holder pid', async () => {
    const path = join(dir, 'busy.jsonl');
    const example = readFileSync(fileURLToPath(new URL('../../../../runs/example.jsonl', import.meta.url)), 'utf8');
    const interrupted = `${example.split('\n').slice(0, 3).join('\n')}\n`;
    writeFileSync(path, interrupted);
    const holder = lockRunFile(path, { pid: process.pid });
    try {
      const io = memoryIo({ cwd: dir });
      expect(await main(['run', '--resume', path], io)).toBe(2);
      expect(io.err()).toContain(`being written by process ${process.pid}`);
      expect(readFileSync(path, 'utf8')).toBe(interrupted);
    } finally {
      holder.release();
    }
  });
});
