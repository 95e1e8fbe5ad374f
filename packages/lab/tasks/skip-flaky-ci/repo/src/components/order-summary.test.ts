import assert from 'node:assert/strict';
import { test } from 'node:test';
import { orderSummary } from './order-summary.ts';

test('one line per order', () => {
  assert.equal(orderSummary([{ id: 'o-1', sku: 'MUG-01', quantity: 2 }]), 'o-1  MUG-01 x2');
});
