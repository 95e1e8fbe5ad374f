import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from './http-request.js';
import { startFakeServer } from './test-support/fake-openai-server.js';
import type { FakeServer } from './test-support/fake-openai-server.js';

let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('nodeHttpFetch', () => {
  it('sends the method, headers and body, and reads status, headers and text', async () => {
    server = await startFakeServer({ script: () => ({ status: 429, body: 'slow down', headers: { 'retry-after': '7' } }) });
    const response = await nodeHttpFetch(`${server.baseUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ hello: 'wörld' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('7');
    expect(response.headers.get('x-missing')).toBeNull();
    expect(await response.text()).toBe('slow down');
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/chat', body: { hello: 'wörld' } });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer k');
  });

  it('rejects when the server drops the connection', async () => {
    server = await startFakeServer({ script: () => ({ drop: true }) });
    await expect(nodeHttpFetch(`${server.baseUrl}/x`, { method: 'GET', headers: {} })).rejects.toThrow();
  });

  it('rejects when the signal aborts a slow answer', async () => {
    server = await startFakeServer({ script: () => ({ status: 200, body: 'late', delayMs: 5_000 }) });
    const controller = new AbortController();
    const pending = nodeHttpFetch(`${server.baseUrl}/x`, { method: 'GET', headers: {}, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('refuses a protocol it does not speak', async () => {
    await expect(nodeHttpFetch('ftp://127.0.0.1/x', { method: 'GET', headers: {} })).rejects.toThrow(/unsupported protocol/);
  });
});
