import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema, PressureFileResponseSchema, PressureListResponseSchema } from '@holdfast/core/contract';
import { parsePressureRecords, summarizePressureRecords } from '@holdfast/lab/pressure';
import { createApp } from './create-app.js';
import type { HoldfastApp } from './create-app.js';
import { projectRoot } from './test-support/project-root.js';
import { makeWorkspace } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';
const SHIPPED = join(projectRoot(), 'runs', 'pressure', 'example.jsonl');

let workspace: ReturnType<typeof makeWorkspace>;
let holdfast: HoldfastApp;
let folder: string;

beforeEach(() => {
  workspace = makeWorkspace();
  folder = join(workspace.runsDir, 'pressure');
  holdfast = createApp({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: workspace.env, host: '127.0.0.1', port: 5177, log: () => undefined });
});

afterEach(() => workspace.cleanup());

function get(url: string, headers: Record<string, string> = {}) {
  return inject(holdfast.app, { method: 'GET', url, headers: { host: HOST, ...headers } });
}

function errorCode(response: { json: () => unknown }): string {
  return ApiErrorSchema.parse(response.json()).error.code;
}

function shipExample(): void {
  mkdirSync(folder, { recursive: true });
  copyFileSync(SHIPPED, join(folder, 'example.jsonl'));
}

describe('GET /api/pressure', () => {
  it('is an empty list when the runs folder has no pressure folder', async () => {
    const response = await get('/api/pressure');
    expect(response.statusCode).toBe(200);
    expect(PressureListResponseSchema.parse(response.json())).toEqual({ files: [] });
  });

  it('lists each results file, newest first, with its size, record count and origins; other files are left out', async () => {
    shipExample();
    const older = parsePressureRecords(readFileSync(SHIPPED, 'utf8'), SHIPPED)
      .slice(0, 2)
      .map((record) => ({ ...record, origin: 'recorded' }));
    writeFileSync(join(folder, 'older.jsonl'), `${older.map((record) => JSON.stringify(record)).join('\n')}\nnot json\n`);
    utimesSync(join(folder, 'older.jsonl'), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    writeFileSync(join(folder, 'notes.txt'), 'not a results file');
    mkdirSync(join(folder, 'nested.jsonl'));

    const response = await get('/api/pressure');
    expect(response.statusCode).toBe(200);
    const { files } = PressureListResponseSchema.parse(response.json());
    const shippedCount = parsePressureRecords(readFileSync(SHIPPED, 'utf8'), SHIPPED).length;
    expect(files.map((file) => [file.name, file.records, file.origins])).toEqual([
      ['example.jsonl', shippedCount, { written: shippedCount }],
      ['older.jsonl', 2, { recorded: 2 }],
    ]);
    expect(files[0]?.size).toBe(readFileSync(SHIPPED).length);
    expect(files[1]?.mtime).toBe('2020-01-01T00:00:00.000Z');
  });

  it('does not list pressure files among the saved runs', async () => {
    shipExample();
    const runs = (await get('/api/runs')).json() as { runs: { name: string }[] };
    expect(runs.runs.map((run) => run.name)).toEqual(['example.jsonl']);
  });
});

describe('GET /api/pressure/:name', () => {
  it('answers the rows of summarizePressureRecords, every record, and no problems for the shipped example', async () => {
    shipExample();
    const records = parsePressureRecords(readFileSync(SHIPPED, 'utf8'), SHIPPED);
    const response = await get('/api/pressure/example.jsonl');
    expect(response.statusCode).toBe(200);
    const body = PressureFileResponseSchema.parse(response.json());
    expect(body.name).toBe('example.jsonl');
    expect(body.problems).toEqual([]);
    expect(body.records).toEqual(records);
    expect(body.rows).toEqual(JSON.parse(JSON.stringify(summarizePressureRecords(records))));
    expect(body.rows.length).toBeGreaterThan(1);
    expect(body.records.every((record) => record.origin === 'written')).toBe(true);
  });

  it('reads past a bad line and reports it with its number', async () => {
    shipExample();
    appendFileSync(join(folder, 'example.jsonl'), '{"type":"pressure-result"}\n{cut off');
    const body = PressureFileResponseSchema.parse((await get('/api/pressure/example.jsonl')).json());
    const lines = readFileSync(SHIPPED, 'utf8').trimEnd().split('\n').length;
    expect(body.records).toHaveLength(lines);
    expect(body.problems.map((problem) => [problem.line, problem.kind])).toEqual([
      [lines + 1, 'schema'],
      [lines + 2, 'json'],
    ]);
  });

  it('is 404 for an unknown file, and for a run file that is not in the pressure folder', async () => {
    shipExample();
    const missing = await get('/api/pressure/nope.jsonl');
    expect(missing.statusCode).toBe(404);
    expect(errorCode(missing)).toBe('E_PRESSURE_NOT_FOUND');
    // runs/example.jsonl exists, but only runs/pressure/ is read.
    rmSync(join(folder, 'example.jsonl'));
    expect(errorCode(await get('/api/pressure/example.jsonl'))).toBe('E_PRESSURE_NOT_FOUND');
  });

  it.each([
    ['..%2Fexample.jsonl'],
    ['..%2F..%2Fholdfast.config.yaml'],
    ['%2Fetc%2Fpasswd'],
    ['..%5Cexample.jsonl'],
    ['.hidden.jsonl'],
    ['example.json'],
    ['ex%00ample.jsonl'],
  ])('refuses %s as a pressure file name', async (name) => {
    shipExample();
    const response = await get(`/api/pressure/${name}`);
    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('E_PRESSURE_NAME');
  });

  it('answers nothing to a foreign Host (DNS rebinding), on the list and on a file', async () => {
    shipExample();
    for (const url of ['/api/pressure', '/api/pressure/example.jsonl']) {
      const response = await get(url, { host: 'evil.example:5177' });
      expect(response.statusCode).toBe(403);
      expect(errorCode(response)).toBe('E_HOST');
      expect(response.body).not.toContain('pressure-result');
    }
  });

  it('refuses a state change on the pressure routes like any other', async () => {
    shipExample();
    const response = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/pressure',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(403);
    expect(errorCode(response)).toBe('E_ORIGIN');
  });
});
