import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema, PressureListResponseSchema, RunListResponseSchema } from '@holdfast/core/contract';
import { createApp } from './create-app.js';
import type { HoldfastApp } from './create-app.js';
import { EXAMPLE, makeWorkspace } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';
const SECRET = 'sk-ant-api03-the-dotenv-key-that-a-link-would-leak';

let workspace: ReturnType<typeof makeWorkspace>;
let holdfast: HoldfastApp;
const fifos: string[] = [];

beforeEach(() => {
  workspace = makeWorkspace();
  writeFileSync(join(workspace.cwd, '.env'), `ANTHROPIC_API_KEY=${SECRET}\n`);
  holdfast = createApp({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: workspace.env, host: '127.0.0.1', port: 5177, log: () => {} });
});

afterEach(async () => {
  // Should a reader be stuck on a FIFO, a writer opening it lets the reader go.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader is waiting
    }
  }
  await holdfast.runs.cancelAll();
  workspace.cleanup();
});

function get(url: string, headers: Record<string, string> = {}) {
  return inject(holdfast.app, { method: 'GET', url, headers: { host: HOST, ...headers } });
}

const RUN_VIEWS = ['', '?view=lean', '?view=summary', '?view=full'];
const ACCEPTS: Record<string, string>[] = [{}, { accept: 'application/json' }];

async function expectRefused(name: string): Promise<void> {
  for (const view of RUN_VIEWS) {
    for (const accept of ACCEPTS) {
      const response = await get(`/api/runs/${name}${view}`, accept);
      expect(response.body).not.toContain(SECRET);
      expect([403, 404]).toContain(response.statusCode);
      ApiErrorSchema.parse(response.json());
    }
  }
  const round = await get(`/api/runs/${name}/rounds/${encodeURIComponent('t/x/1')}`);
  expect([403, 404]).toContain(round.statusCode);
  expect(round.body).not.toContain(SECRET);
}

describe('what the server serves from runs/', () => {
  it('refuses a run file that is a link to a file outside runs/, and lists it as refused', async () => {
    symlinkSync('../.env', join(workspace.runsDir, 'leak.jsonl'));
    await expectRefused('leak.jsonl');
    const response = await get('/api/runs/leak.jsonl');
    expect(response.statusCode).toBe(403);
    expect(ApiErrorSchema.parse(response.json()).error.code).toBe('E_RUN_FILE_REFUSED');
    const list = RunListResponseSchema.parse((await get('/api/runs')).json());
    expect(list.runs.find((run) => run.name === 'leak.jsonl')?.refused).toMatch(/symbolic link/);
    expect(list.runs.find((run) => run.name === EXAMPLE)?.refused).toBeUndefined();
  });

  it('refuses a link even to a regular run file inside runs/', async () => {
    symlinkSync(EXAMPLE, join(workspace.runsDir, 'alias.jsonl'));
    expect((await get('/api/runs/alias.jsonl')).statusCode).toBe(403);
    expect((await get(`/api/runs/${EXAMPLE}`)).statusCode).toBe(200);
  });

  it('answers every route while a FIFO named x.jsonl sits in runs/', async () => {
    const fifo = join(workspace.runsDir, 'x.jsonl');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    // More requests for the FIFO than the thread pool has threads: a blocking open would take them all.
    const pending = [
      ...RUN_VIEWS.flatMap((view) => ACCEPTS.map((accept) => get(`/api/runs/x.jsonl${view}`, accept))),
      get('/api/runs/x.jsonl/rounds/a%2Fb%2F1'),
    ];
    const list = await get('/api/runs');
    expect(list.statusCode).toBe(200);
    expect(RunListResponseSchema.parse(list.json()).runs.find((run) => run.name === 'x.jsonl')?.refused).toMatch(/FIFO/);
    expect((await get('/api/config')).statusCode).toBe(200);
    expect((await get(`/api/runs/${EXAMPLE}?view=lean`)).statusCode).toBe(200);
    for (const response of await Promise.all(pending)) expect(response.statusCode).toBe(403);
  });

  it('refuses a pressure folder that is a link out of runs/', async () => {
    const outside = join(workspace.cwd, 'elsewhere');
    mkdirSync(outside);
    writeFileSync(join(outside, 'p.jsonl'), `{"secret":"${SECRET}"}\n`);
    symlinkSync(outside, join(workspace.runsDir, 'pressure'));
    const file = await get('/api/pressure/p.jsonl');
    expect(file.statusCode).toBe(403);
    expect(file.body).not.toContain(SECRET);
    const list = await get('/api/pressure');
    expect(list.statusCode).toBe(200);
    expect(PressureListResponseSchema.parse(list.json()).files).toEqual([]);
  });

  it('refuses a run file reached through a linked folder named like a run', async () => {
    const outside = join(workspace.cwd, 'folder.jsonl');
    mkdirSync(outside);
    symlinkSync(outside, join(workspace.runsDir, 'folder.jsonl'));
    await expectRefused('folder.jsonl');
    const list = RunListResponseSchema.parse((await get('/api/runs')).json());
    expect(list.runs.find((run) => run.name === 'folder.jsonl')?.refused).toMatch(/symbolic link/);
  });
});
