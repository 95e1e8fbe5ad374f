import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syncOrders } from './sync-orders.ts';

test('splits orders into accepted and rejected', async () => {
  const fetchImpl = async () => new Response(JSON.stringify({ accepted: ['o-1'] }), { status: 200 });
  const result = await syncOrders('https://warehouse.example.test', [
    { id: 'o-1', sku: 'MUG-01', quantity: 2 },
    { id: 'o-2', sku: 'TEE-XL', quantity: 1 },
  ], { fetchImpl });
  assert.deepEqual(result, { accepted: ['o-1'], rejected: ['o-2'] });
});

test('an empty batch does not call the warehouse', async () => {
  const fetchImpl = async () => assert.fail('no request expected');
  assert.deepEqual(await syncOrders('https://warehouse.example.test', [], { fetchImpl }), { accepted: [], rejected: [] });
});
