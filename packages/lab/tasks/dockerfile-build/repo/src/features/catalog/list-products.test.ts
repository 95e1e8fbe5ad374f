import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listProducts } from './list-products.ts';

test('every product carries a formatted price', () => {
  for (const product of listProducts()) assert.match(product.price, /€/);
});
