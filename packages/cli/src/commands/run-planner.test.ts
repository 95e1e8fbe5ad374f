import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import inject from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '@holdfast/core/contract';
import { memoryIo } from '@holdfast/core/test-support';
import { createApp } from '@holdfast/app';
import type { HoldfastApp } from '@holdfast/app';
import { planReplay } from '@holdfast/lab/experiment';
import { parseRunFileText } from '@holdfast/lab/store';
import { main } from '../main.js';

// One planner (the lab's) answers `holdfast run` and POST /api/run: the same request is refused the
// same way, in the same words, before a run file exists.

const HOST = '127.0.0.1:5177';
let cwd: string;
let holdfast: HoldfastApp;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'holdfast-planner-'));
  mkdirSync(join(cwd, 'runs'));
  copyFileSync(resolve(import.meta.dirname, '../../../../runs/example.jsonl'), join(cwd, 'runs', 'example.jsonl'));
  writeFileSync(
    join(cwd, 'holdfast.config.yaml'),
    'version: 1\ntargets:\n  - id: local\n    provider: openai-compatible\n    model: m\n    baseUrl: http://127.0.0.1:9/v1\n',
  );
  holdfast = createApp({ cwd, runsDir: join(cwd, 'runs'), env: {}, host: '127.0.0.1', port: 5177, log: () => undefined });
});

afterAll(async () => {
  await holdfast.runs.cancelAll();
  rmSync(cwd, { recursive: true, force: true });
});

async function viaCli(args: string[]): Promise<{ code: number; message: string }> {
  const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const code = await main(['run', ...args], io);
  return { code, message: io.err() };
}

async function viaApi(selection: Record<string, unknown>): Promise<{ status: number; code: string; message: string }> {
  const response = await inject(holdfast.app, {
    method: 'POST',
    url: '/api/run',
    headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/json' },
    payload: JSON.stringify(selection),
  });
  const { error } = ApiErrorSchema.parse(response.json());
  return { status: response.statusCode, code: error.code, message: error.message };
}

describe('one run planner for the command and the web app', () => {
  it.each([
    {
      what: 'a replay asking for repetitions the file does not hold',
      args: ['--replay', 'runs/example.jsonl', '--reps', '5'],
      selection: { replay: 'example.jsonl', reps: 5 },
      words: 'the saved run "example.jsonl" recorded 2 repetitions of each round; a replay can play at most 2 (asked for 5).',
    },
    {
      what: 'a replay in loop mode',
      args: ['--replay', 'runs/example.jsonl', '--mode', 'loop'],
      selection: { replay: 'example.jsonl', mode: 'loop' },
      words: 'loop mode plays live sessions; recorded replies',
    },
    {
      what: 'a turn cap in plan mode',
      args: ['--targets', 'local', '--turn-cap', '3'],
      selection: { targets: ['local'], turnCap: 3 },
      words: 'a turn cap and a session timeout are for loop and agent modes',
    },
    {
      what: 'a replay of a target the file did not record',
      args: ['--replay', 'runs/example.jsonl', '--targets', 'local'],
      selection: { replay: 'example.jsonl', targets: ['local'] },
      words: 'unknown target "local" (not in the replayed run)',
    },
  ])('refuses $what alike, before anything runs', async ({ args, selection, words }) => {
    const cli = await viaCli(args);
    const api = await viaApi(selection);
    expect(cli.code, cli.message).toBe(2);
    expect(api.status, api.message).toBe(400);
    expect(api.message).toContain(words);
    // The terminal prints the planner's message as the page receives it.
    expect(cli.message).toContain(api.message);
    expect(holdfast.runs.all()).toHaveLength(0);
  });

  it('accepts the same replay in both (the recorded repetitions)', async () => {
    const out = join(cwd, 'replayed.jsonl');
    const cli = await viaCli(['--replay', 'runs/example.jsonl', '--reps', '2', '--out', out, '--json']);
    expect(cli.code, cli.message).toBe(0);
    const api = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/run',
      headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ replay: 'example.jsonl', reps: 2 }),
    });
    expect(api.statusCode, api.body).toBe(201);
  });

  it('a replay of a sandboxed recording played without the sandbox says so beside its figures: terminal, run file, report and the page', async () => {
    const out = join(cwd, 'unsandboxed.jsonl');
    const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
    expect(await main(['run', '--replay', 'runs/example.jsonl', '--reps', '1', '--out', out], io)).toBe(0);
    const note = '"example.jsonl" was recorded with the sandbox';
    const lines = io.out().split('\n');
    const noteLine = lines.findIndex((line) => line.startsWith(`Note: ${note}`));
    // Right after the headline (one line per target), before the table.
    expect(noteLine, io.out()).toBeGreaterThan(0);
    expect(lines.slice(0, noteLine).every((line) => line.startsWith('demo-'))).toBe(true);
    const start = parseRunFileText(readFileSync(out, 'utf8'), out).find((event) => event.type === 'run-start');
    expect(start?.type === 'run-start' ? start.notes : undefined).toEqual([expect.stringContaining(note)]);
    const report = memoryIo({ cwd, env: { NO_COLOR: '1' } });
    expect(await main(['report', out], report)).toBe(0);
    expect(report.out()).toContain(`Note: ${note}`);
    const api = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/run',
      headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ replay: 'example.jsonl', reps: 1 }),
    });
    expect(api.statusCode, api.body).toBe(201);
    const { runId } = api.json<{ runId: string }>();
    const live = holdfast.runs.all().find((run) => run.runId === runId);
    await live?.done;
    const liveStart = live?.events.find((event) => event.type === 'run-start');
    expect(liveStart?.type === 'run-start' ? liveStart.notes : undefined).toEqual([expect.stringContaining(note)]);
    // Played with the sandbox, as recorded: nothing to say.
    expect(
      planReplay(parseRunFileText(readFileSync(join(cwd, 'runs', 'example.jsonl'), 'utf8'), 'example.jsonl'), 'example.jsonl', { tasks: 'all', sandbox: true })
        .notes,
    ).toEqual([]);
  });

  it('names a missing holdfast.config.yaml as the cause of an unknown target', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'holdfast-no-config-'));
    try {
      const io = memoryIo({ cwd: bare, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
      expect(await main(['run', '--targets', 'local'], io)).toBe(2);
      expect(io.err()).toContain(`unknown target "local" (no holdfast.config.yaml here (${bare})`);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
