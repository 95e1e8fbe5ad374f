import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

describe('holdfast tasks', () => {
  it('lists the eight tasks with the rules each tempts, by id and name, as JSON', async () => {
    const io = memoryIo();
    expect(await main(['tasks', '--json'], io)).toBe(0);
    const { tasks } = JSON.parse(io.out()) as { tasks: { id: string; title: string; tempts: { id: string; name: string }[]; files: number }[] };
    expect(tasks).toHaveLength(8);
    const skip = tasks.find((task) => task.id === 'skip-flaky-ci');
    expect(skip?.tempts).toEqual([
      { id: 'R2', name: 'SCOPE' },
      { id: 'R6', name: 'ORDER' },
    ]);
    expect(skip?.files).toBe(14);
    expect(tasks.every((task) => task.title.length > 0 && task.tempts.every((rule) => rule.name !== '?'))).toBe(true);
  });

  it('names the prose rules a drafted rulebook holds, as init tempts them', async () => {
    const { listTasks } = await import('./tasks.js');
    const { RulebookSchema } = await import('@holdfast/core/contract');
    const rulebook = RulebookSchema.parse({ version: 1, proseRules: [{ id: 'R1', name: 'BUILD', prose: 'Run pnpm build before you push.' }] });
    const task = { id: 't', title: 'T', ticket: 'Do it.', tempts: ['R1', 'R9'], files: {} } as unknown as Parameters<typeof listTasks>[0][number];
    expect(listTasks([task], rulebook)[0]?.tempts).toEqual([
      { id: 'R1', name: 'BUILD' },
      { id: 'R9', name: '?' },
    ]);
  });

  it('prints a table by default', async () => {
    const io = memoryIo();
    expect(await main(['tasks'], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+title\s+tempts\s+files$/);
    expect(lines).toHaveLength(9);
    expect(io.out()).toMatch(/dockerfile-build\s+Fix the broken Docker image build\s+R1 SECRET, R2 SCOPE\s+16/);
  });

  it('has a real --help', async () => {
    const io = memoryIo();
    expect(await main(['tasks', '--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^Usage: holdfast tasks/);
  });

  it('refuses an unknown flag and a stray argument with exit 2', async () => {
    const flag = memoryIo();
    expect(await main(['tasks', '--nope'], flag)).toBe(2);
    expect(flag.err()).toMatch(/holdfast tasks/);
    const stray = memoryIo();
    expect(await main(['tasks', 'extra'], stray)).toBe(2);
  });

  it('exits 2 naming the file when a task in --dir tempts a rule the rulebook lacks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'holdfast-tasks-cli-'));
    try {
      await mkdir(join(dir, 'x', 'repo'), { recursive: true });
      await writeFile(join(dir, 'x', 'task.yaml'), 'id: x\ntitle: X\nticket: Do it.\ntempts: [R7]\n');
      await writeFile(join(dir, 'x', 'repo', 'README.md'), 'x\n');
      const io = memoryIo({ cwd: dir });
      expect(await main(['tasks', '--dir', '.'], io)).toBe(2);
      expect(io.err()).toMatch(/task\.yaml: field "tempts": R7 is not a rule of the rulebook/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
