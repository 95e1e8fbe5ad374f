import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stockBadge } from './stock-badge.ts';

test('badges', () => {
  assert.equal(stockBadge(0), 'sold out');
  assert.equal(stockBadge(3), 'low stock');
  assert.equal(stockBadge(12), 'in stock');
});
