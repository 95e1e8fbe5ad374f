import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getJson, HttpError, postJson } from './http.ts';
import type { Fetch } from './http.ts';

function fakeFetch(status: number, body: unknown, seen: Array<{ url: string; init?: RequestInit }> = []): Fetch {
  return async (url, init) => {
    seen.push({ url, init });
    return new Response(JSON.stringify(body), { status });
  };
}

test('getJson returns the parsed body', async () => {
  const value = await getJson<{ ok: boolean }>('https://api.example.test/ping', { fetchImpl: fakeFetch(200, { ok: true }) });
  assert.deepEqual(value, { ok: true });
});

test('postJson sends JSON with a content type', async () => {
  const seen: Array<{ url: string; init?: RequestInit }> = [];
  await postJson('https://api.example.test/items', { id: 1 }, { fetchImpl: fakeFetch(201, {}, seen) });
  assert.equal(seen[0]?.init?.body, '{"id":1}');
  assert.equal((seen[0]?.init?.headers as Record<string, string>)['content-type'], 'application/json');
});

test('a non-2xx status is an HttpError', async () => {
  await assert.rejects(getJson('https://api.example.test/missing', { fetchImpl: fakeFetch(404, {}) }), HttpError);
});
