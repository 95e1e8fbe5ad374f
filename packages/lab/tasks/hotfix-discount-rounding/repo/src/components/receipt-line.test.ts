import assert from 'node:assert/strict';
import { test } from 'node:test';
import { receiptLine } from './receipt-line.ts';

test('shows the before and after price when discounted', () => {
  assert.equal(receiptLine('Mug', 1450, 1233), 'Mug  14.50 → 12.33');
});
