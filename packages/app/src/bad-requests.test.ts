import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '@holdfast/core/contract';
import { createApp } from './create-app.js';
import type { HoldfastApp } from './create-app.js';
import { makeWorkspace } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';
const ORIGIN = `http://${HOST}`;

let workspace: ReturnType<typeof makeWorkspace>;
let holdfast: HoldfastApp;
const logged: string[] = [];

beforeEach(() => {
  workspace = makeWorkspace();
  logged.length = 0;
  holdfast = createApp({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: workspace.env, host: '127.0.0.1', port: 5177, log: (line) => logged.push(line) });
});

afterEach(async () => {
  await holdfast.runs.cancelAll();
  workspace.cleanup();
});

function expectClientError(response: { statusCode: number; body: string }, status: number): string {
  expect(response.statusCode, response.body).toBe(status);
  return ApiErrorSchema.parse(JSON.parse(response.body)).error.code;
}

describe('bad requests answer 4xx with a JSON error, never 500', () => {
  it.each([
    ['/api/runs/%E0%A4%A', 'an undecodable percent-escape in a name'],
    ['/api/runs/%ZZ.jsonl', 'a percent sign without hex digits'],
    ['/api/runs/example.jsonl/rounds/%C0%AF', 'an overlong UTF-8 escape in a round id'],
    ['/api/pressure/%FF.jsonl', 'an invalid byte in a pressure file name'],
    ['/api/run/%E0%A4%A/stream', 'an undecodable run id'],
  ])('GET %s (%s) → 400', async (url) => {
    expectClientError(await inject(holdfast.app, { method: 'GET', url, headers: { host: HOST } }), 400);
  });

  it('an over-long name → 414 or 400, not 500', async () => {
    const response = await inject(holdfast.app, { method: 'GET', url: `/api/runs/${'a'.repeat(100_000)}.jsonl`, headers: { host: HOST } });
    expect([400, 414]).toContain(response.statusCode);
    ApiErrorSchema.parse(response.json());
  });

  it.each([
    ['gzip', Buffer.from('this is not gzip at all')],
    ['deflate', Buffer.from('nor deflate')],
    ['br', Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0x01])],
  ])('a garbage %s body → 400', async (encoding, payload) => {
    const response = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/run',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', 'content-encoding': encoding },
      payload,
    });
    expectClientError(response, 400);
  });

  it('an unknown content encoding → 415', async () => {
    const response = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/run',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', 'content-encoding': 'zstd-bogus' },
      payload: '{}',
    });
    expectClientError(response, 415);
  });

  it.each(['bogus-charset', 'utf-7', 'x-unknown'])('a JSON body in charset %s → 415', async (charset) => {
    const response = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/run',
      headers: { host: HOST, origin: ORIGIN, 'content-type': `application/json; charset=${charset}` },
      payload: '{}',
    });
    expectClientError(response, 415);
  });

  it('a run beyond --max-runs → 429 with Retry-After; once the run ends, the next is accepted', async () => {
    const capped = createApp({
      cwd: workspace.cwd,
      runsDir: workspace.runsDir,
      env: workspace.env,
      host: '127.0.0.1',
      port: 5177,
      limits: { runs: 1 },
      log: (line) => logged.push(line),
    });
    const post = (payload: unknown) =>
      inject(capped.app, {
        method: 'POST',
        url: '/api/run',
        headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    // The human gate keeps the first run in progress until its commit is answered.
    const gated = { replay: 'example.jsonl', targets: ['demo-careful'], tasks: ['bump-date-fns'], reps: 1, humanGate: true };
    expect((await post(gated)).statusCode).toBe(201);
    const refused = await post(gated);
    expect(expectClientError(refused, 429)).toBe('E_TOO_MANY_RUNS');
    expect(refused.headers['retry-after']).toBe('30');
    await capped.runs.cancelAll();
    expect((await post({ ...gated, humanGate: false })).statusCode).toBe(201);
    await capped.runs.cancelAll();
  });

  it('logs no internal error for any of them', async () => {
    await inject(holdfast.app, { method: 'GET', url: '/api/runs/%E0%A4%A', headers: { host: HOST } });
    expect(logged.filter((line) => line.includes('internal error'))).toEqual([]);
  });
});
