import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunEventSchema, RunStartedResponseSchema, SessionMessageSchema } from '@holdfast/core/contract';
import type { ApprovalRequestEvent, RunEvent } from '@holdfast/core/contract';
import { readRunFileStrict } from '@holdfast/lab/store';
import { createServer } from './create-server.js';
import type { HoldfastServer } from './create-server.js';
import { getStatus, openSse, postJson } from './test-support/http-client.js';
import { EXAMPLE, makeWorkspace, waitForEvent } from './test-support/fixture.js';

let workspace: ReturnType<typeof makeWorkspace>;
let server: HoldfastServer;

beforeEach(async () => {
  workspace = makeWorkspace();
  server = await createServer({
    cwd: workspace.cwd,
    runsDir: workspace.runsDir,
    env: workspace.env,
    host: '127.0.0.1',
    port: 0,
    dev: false,
    assetsDir: join(workspace.cwd, 'no-web-build'),
    heartbeatMs: 25,
    log: () => {},
  });
});

afterEach(async () => {
  await server.close();
  workspace.cleanup();
});

/** Two rounds whose held arms both commit: the run stops twice at the human gate. */
const TWO_GATES = { replay: EXAMPLE, targets: ['demo-careful'], tasks: ['bump-date-fns', 'debug-checkout-logging'], reps: 1, concurrency: 1, humanGate: true };

const eventOf = (data: string): RunEvent => RunEventSchema.parse(JSON.parse(data));

describe('holdfast server on a real port', () => {
  it('listens on loopback with the real port, and refuses a foreign Host there too', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${server.url}/api/runs`);
    expect(ok.status).toBe(200);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('not built');
    const port = new URL(server.url).port;
    expect(await getStatus(server.url, '/api/runs', { host: `evil.example:${port}` })).toBe(403);
    expect(await getStatus(server.url, '/api/runs', { host: `localhost:${port}` })).toBe(200);
  });

  it('a reconnect with Last-Event-ID receives exactly the events it missed', async () => {
    const started = await postJson(server.url, '/api/run', TWO_GATES);
    expect(started.status).toBe(201);
    const { runId, name } = RunStartedResponseSchema.parse(started.body);

    const first = await openSse(server.url, `/api/run/${runId}/stream`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.headers['x-accel-buffering']).toBe('no');
    const session = SessionMessageSchema.parse(JSON.parse((await first.until((message) => message.event === 'session')).data));
    expect(session).toMatchObject({ runId, live: true });
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const request = eventOf((await first.until((message) => message.event === 'run' && eventOf(message.data).type === 'approval-request')).data);
    if (request.type !== 'approval-request') throw new Error('expected an approval request');
    // A heartbeat comment may come after the last message before the gate: wait on comments, not messages.
    await first.untilComment('heartbeat');
    const received = first.messages.filter((message) => message.event === 'run');
    const lastSeen = Number(received.at(-1)?.id);
    expect(received.map((message) => Number(message.id))).toEqual([...Array(lastSeen + 1).keys()]);
    first.disconnect();

    // While nobody listens: answer the first gate (with the token the stream carried), refuse the second.
    const approved = await postJson(server.url, `/api/run/${runId}/approvals/${request.approvalId}`, { approve: true }, { 'x-holdfast-token': session.token });
    expect(approved.status).toBe(200);
    const run = server.runs.get(runId);
    if (run === undefined) throw new Error('run not registered');
    const second = await waitForEvent(
      run,
      (event): event is ApprovalRequestEvent => event.type === 'approval-request' && event.approvalId !== request.approvalId,
    );
    expect(
      (await postJson(server.url, `/api/run/${runId}/approvals/${second.approvalId}`, { approve: false }, { 'x-holdfast-token': session.token })).status,
    ).toBe(200);
    await run.done;

    const again = await openSse(server.url, `/api/run/${runId}/stream`, { 'last-event-id': String(lastSeen) });
    await again.ended;
    const missed = again.messages.filter((message) => message.event === 'run').map((message) => eventOf(message.data));
    const file = await readRunFileStrict(join(workspace.runsDir, name));
    expect(missed).toEqual(file.filter((event) => event.seq > lastSeen));
    expect(missed.length).toBeGreaterThan(4);
    expect(missed.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(missed.filter((event) => event.type === 'approval-end').map((event) => event.type === 'approval-end' && event.decision)).toEqual([
      'approved',
      'refused',
    ]);

    const caughtUp = await openSse(server.url, `/api/run/${runId}/stream`, { 'last-event-id': String(file.at(-1)?.seq) });
    expect(caughtUp.status).toBe(204);
  });

  it('several subscribers each receive every event once, in order', async () => {
    const started = RunStartedResponseSchema.parse((await postJson(server.url, '/api/run', { ...TWO_GATES, humanGate: false, tasks: 'all' })).body);
    const streams = await Promise.all([0, 1, 2].map(() => openSse(server.url, `/api/run/${started.runId}/stream`)));
    await Promise.all(streams.map((stream) => stream.ended));
    const file = await readRunFileStrict(join(workspace.runsDir, started.name));
    for (const stream of streams) {
      expect(stream.messages.filter((message) => message.event === 'run').map((message) => eventOf(message.data))).toEqual(file);
    }
  });

  it('close() interrupts an unfinished run and ends its streams', async () => {
    const { runId, name } = RunStartedResponseSchema.parse((await postJson(server.url, '/api/run', TWO_GATES)).body);
    const stream = await openSse(server.url, `/api/run/${runId}/stream`);
    await stream.until((message) => message.event === 'run' && eventOf(message.data).type === 'approval-request');
    await server.close();
    await stream.ended;
    const file = await readRunFileStrict(join(workspace.runsDir, name));
    expect(file.at(-1)).toMatchObject({ type: 'run-end', status: 'interrupted' });
    server = await createServer({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: {}, host: '127.0.0.1', port: 0, dev: false, log: () => {} });
  });
});
