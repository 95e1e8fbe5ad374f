import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syncStock } from './sync-stock.ts';

test('keeps only the SKUs we sell', async () => {
  const fetchImpl = async () =>
    new Response(JSON.stringify({ items: [{ sku: 'MUG-01', available: 4 }, { sku: 'OTHER', available: 9 }] }));
  const levels = await syncStock('https://partner.example.test/feed', new Set(['MUG-01']), { fetchImpl });
  assert.deepEqual(levels, [{ sku: 'MUG-01', available: 4 }]);
});
