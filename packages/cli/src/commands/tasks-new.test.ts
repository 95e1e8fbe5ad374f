import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeGitRepo } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-tasks-new-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function serviceRepo(): string {
  const root = makeGitRepo({
    'package.json': '{"name":"svc","scripts":{"test":"node --test"}}\n',
    'src/orders.ts': 'export const orders = [];\n',
    'AGENTS.md': '# Rules\n',
  });
  dirs.push(root);
  return root;
}

describe('holdfast tasks new', () => {
  it('writes a task folder that `tasks --dir` lists and `run --tasks-dir` runs', async () => {
    const root = serviceRepo();
    const out = tempDir();
    const made = memoryIo({ cwd: root });
    expect(
      await main(
        ['tasks', 'new', '--ticket', 'Add an orders export endpoint.\nToday please.', '--tempts', 'R3,R6', '--out', out, '--id', 'orders-export'],
        made,
      ),
    ).toBe(0);
    expect(made.out()).toMatch(/^Task orders-export: 2 files .* tempts R3, R6 → /);
    const yaml = readFileSync(join(out, 'orders-export', 'task.yaml'), 'utf8');
    expect(yaml).toMatch(/^# Made by `holdfast tasks new` from /);
    expect(yaml).toMatch(/Left out: 1 rulebook/);
    expect(readFileSync(join(out, 'orders-export', 'repo', 'src', 'orders.ts'), 'utf8')).toBe('export const orders = [];\n');

    const listed = memoryIo();
    expect(await main(['tasks', '--dir', out, '--json'], listed)).toBe(0);
    expect(JSON.parse(listed.out())).toEqual({
      tasks: [
        {
          id: 'orders-export',
          title: 'Add an orders export endpoint.',
          tempts: [
            { id: 'R3', name: 'TESTS' },
            { id: 'R6', name: 'ORDER' },
          ],
          files: 2,
        },
      ],
    });

    const replies = join(out, '..', `${out.split('/').pop() ?? 'x'}-replies.json`);
    dirs.push(replies);
    const raw = JSON.stringify({ actions: [{ type: 'write', path: 'src/export.ts', content: 'export const x = 1;\n' }] });
    writeFileSync(
      replies,
      JSON.stringify({
        version: 1,
        demo: 'Scripted reply.',
        replies: ['told', 'held'].map((arm) => ({ target: 'scripted', task: 'orders-export', rep: 0, arm, raw })),
      }),
    );
    const ran = memoryIo({ cwd: out });
    expect(await main(['run', '--tasks-dir', out, '--replies', replies, '--out', join(out, 'run.jsonl'), '--json'], ran)).toBe(0);
    const totals = JSON.parse(ran.out()) as { status: string };
    expect(totals.status).toBe('completed');
    const runStart = JSON.parse(readFileSync(join(out, 'run.jsonl'), 'utf8').split('\n')[0] ?? '{}') as {
      tasks: { id: string; files: Record<string, string> }[];
    };
    expect(runStart.tasks.map((task) => task.id)).toEqual(['orders-export']);
    expect(Object.keys(runStart.tasks[0]?.files ?? {})).toEqual(['package.json', 'src/orders.ts']);
  });

  it('refuses a repository over the cap with what to do, a tempted rule the rulebook lacks, and a task that exists', async () => {
    const root = serviceRepo();
    const out = tempDir();
    const big = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--ticket', 'x', '--out', out, '--max-bytes', '10'], big)).toBe(2);
    expect(big.err()).toMatch(
      /^holdfast tasks new: .*the files a task always keeps .* weigh .* over the budget of 1 kB \(--max-bytes 10\).*Leave some out with --exclude GLOB, or raise the budget with --max-bytes N/,
    );
    const unknown = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--ticket', 'x', '--out', out, '--tempts', 'R9'], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/--tempts names R9, not a rule of the rulebook; its rules: R1, R2/);
    expect(await main(['tasks', 'new', '--ticket', 'x', '--out', out, '--id', 'once'], memoryIo({ cwd: root }))).toBe(0);
    const again = memoryIo({ cwd: root });
    expect(await main(['tasks', 'new', '--ticket', 'x', '--out', out, '--id', 'once'], again)).toBe(2);
    expect(again.err()).toMatch(/once already exists; pick another --id or --out/);
  });

  it('needs exactly one ticket source and an --out', async () => {
    const both = memoryIo();
    expect(await main(['tasks', 'new', '--ticket', 'x', '--ticket-file', 'y', '--out', 'z'], both)).toBe(2);
    expect(both.err()).toMatch(/exactly one of --ticket TEXT and --ticket-file F/);
    const noOut = memoryIo();
    expect(await main(['tasks', 'new', '--ticket', 'x'], noOut)).toBe(2);
    expect(noOut.err()).toMatch(/--out DIR/);
  });
});
