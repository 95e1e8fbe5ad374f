import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

let cwd: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'holdfast-serve-cli-'));
});

afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('holdfast serve', () => {
  it('prints a true --help', async () => {
    const io = memoryIo({ cwd });
    expect(await main(['serve', '--help'], io)).toBe(0);
    expect(io.out()).toContain('Usage: holdfast serve');
    expect(io.out()).toContain('--port');
    expect(io.out()).toContain('--queue redis://HOST:PORT');
  });

  it('refuses bad flags with exit 2', async () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--nope'],
      ['extra'],
      ['--open', '../x.jsonl'],
      ['--host', 'a b'],
      ['--queue', 'localhost:6379'],
    ]) {
      const io = memoryIo({ cwd });
      expect(await main(['serve', ...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(/holdfast serve/);
    }
  });

  it('says so when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const io = memoryIo({ cwd });
      expect(await main(['serve', '--port', String(port)], io)).toBe(2);
      expect(io.err()).toContain(`port ${port}`);
    } finally {
      blocker.close();
    }
  });

  it('serves until stopped, then exits 0', async () => {
    const io = memoryIo({ cwd });
    const exit = main(['serve', '--port', '0'], io);
    await until(() => io.out().includes('listening on'));
    const url = /listening on (http:\/\/\S+)/.exec(io.out())?.[1];
    const response = await fetch(`${url}/api/runs`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ runs: [] });
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exit).toBe(0);
  });
  it('offers the tasks of --tasks-dir in the run form', async () => {
    mkdirSync(join(cwd, 'tasks', 'my-repo-1234567', 'repo', 'src'), { recursive: true });
    writeFileSync(join(cwd, 'tasks', 'my-repo-1234567', 'task.yaml'), 'id: my-repo-1234567\ntitle: Add a health module\nticket: Add it.\ntempts: [R3]\n');
    writeFileSync(join(cwd, 'tasks', 'my-repo-1234567', 'repo', 'src', 'index.ts'), 'export {};\n');
    const io = memoryIo({ cwd });
    const exit = main(['serve', '--port', '0', '--tasks-dir', 'tasks'], io);
    await until(() => io.out().includes('listening on'));
    const url = /listening on (http:\/\/\S+)/.exec(io.out())?.[1];
    const config = (await (await fetch(`${url}/api/config`)).json()) as { tasks: { id: string; files: number }[] };
    expect(config.tasks.map((task) => [task.id, task.files])).toEqual([['my-repo-1234567', 1]]);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exit).toBe(0);
  });
});
