import { openSync, closeSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './create-app.js';
import { makeWorkspace } from './test-support/fixture.js';

// Issue 46: a run file past V8's longest string (about 512 MB) answered 500 in the lean view. Served
// by a real server on loopback, read as a stream and counted, never held as one string here either.

const NAME = 'huge.jsonl';
/** One line of 64 KiB (a run event the reader does not know keeps its text whole in the lean view). */
const LINE = Buffer.from(`${JSON.stringify({ type: 'note', text: 'x'.repeat(64 * 1024 - 32) })}\n`);
/** Past 512 MiB. */
const LINES = Math.ceil((544 * 1024 * 1024) / LINE.length);

let workspace: ReturnType<typeof makeWorkspace>;
let server: Server;
let port: number;

beforeAll(async () => {
  workspace = makeWorkspace();
  const file = openSync(join(workspace.runsDir, NAME), 'w');
  const block = Buffer.concat(Array.from({ length: 64 }, () => LINE));
  for (let written = 0; written < LINES; written += 64)
    writeSync(file, written + 64 <= LINES ? block : Buffer.concat(Array.from({ length: LINES - written }, () => LINE)));
  closeSync(file);
  const holdfast = createApp({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: workspace.env, host: '127.0.0.1', port: 5177, log: () => undefined });
  server = holdfast.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

/** The status and the number of body bytes (and lines) of one GET, counted as they stream. */
function fetchCounted(path: string, accept: string): Promise<{ status: number; bytes: number; lines: number; head: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, headers: { host: '127.0.0.1:5177', accept } }, (response) => {
      let bytes = 0;
      let lines = 0;
      let head = '';
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
        if (head.length < 300) head += chunk.subarray(0, 300).toString('utf8');
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, lines, head }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('a run file over 512 MB', { timeout: 900_000 }, () => {
  it('is served whole in the lean view and in the full view, streamed, line for line', async () => {
    for (const view of ['lean', 'full']) {
      const answer = await fetchCounted(`/api/runs/${NAME}?view=${view}`, 'application/x-ndjson');
      expect(answer.status).toBe(200);
      expect(answer.lines).toBe(LINES);
      expect(answer.bytes).toBe(LINES * LINE.length);
    }
  });

  it('is refused by the JSON view with the size and where to read it instead', async () => {
    const answer = await fetchCounted(`/api/runs/${NAME}`, 'application/json');
    expect(answer.status).toBe(413);
    expect(answer.head).toMatch(/E_RUN_TOO_LARGE_FOR_JSON.*over the JSON view's 256 MB: read it as JSONL/);
  });
});
