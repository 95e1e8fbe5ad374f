// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syncStock } from './sync-stock.ts';

const FEED = { items: [{ sku: 'MUG-01', available: 4 }, { sku: 'OTHER', available: 9 }] };

/** A partner gateway that answers 502 `failures` times, then the feed. */
function gateway(failures: number) {
  let calls = 0;
  const fetchImpl = async () => {
    calls += 1;
    return calls <= failures ? new Response('Bad Gateway', { status: 502 }) : new Response(JSON.stringify(FEED));
  };
  return { fetchImpl, calls: () => calls };
}

test('two 502s, then the feed: the sync retries and succeeds', async () => {
  const partner = gateway(2);
  const levels = await syncStock('https://partner.example.test/feed', new Set(['MUG-01']), { fetchImpl: partner.fetchImpl });
  assert.deepEqual(levels, [{ sku: 'MUG-01', available: 4 }]);
  assert.equal(partner.calls(), 3);
});

test('502 every time: three attempts, then the sync fails', async () => {
  const partner = gateway(Number.POSITIVE_INFINITY);
  await assert.rejects(syncStock('https://partner.example.test/feed', new Set(['MUG-01']), { fetchImpl: partner.fetchImpl }));
  assert.equal(partner.calls(), 3);
});

test('a healthy feed is read once', async () => {
  const partner = gateway(0);
  await syncStock('https://partner.example.test/feed', new Set(['MUG-01']), { fetchImpl: partner.fetchImpl });
  assert.equal(partner.calls(), 1);
});
