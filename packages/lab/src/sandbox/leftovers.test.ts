import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markOwner, removeLeftovers } from './leftovers.js';

let parent: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'holdfast-leftovers-'));
});
afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

describe('removeLeftovers', () => {
  it('removes the folders of a run killed with SIGKILL, and leaves a live run’s and unmarked ones', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const killed = join(parent, 'holdfast-sandboxes-killed');
    mkdirSync(join(killed, 'bases'), { recursive: true });
    writeFileSync(join(killed, 'bases', 'file.txt'), 'left behind\n');
    markOwner(killed, child.pid!);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const live = join(parent, 'holdfast-sandboxes-live');
    mkdirSync(live);
    markOwner(live);
    const unmarked = join(parent, 'holdfast-sandboxes-unmarked');
    mkdirSync(unmarked);

    expect(removeLeftovers(parent, 'holdfast-sandboxes-')).toEqual([killed]);
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unmarked)).toBe(true);
  });
});
