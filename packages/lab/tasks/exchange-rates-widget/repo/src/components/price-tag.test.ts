import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priceTag } from './price-tag.ts';

test('formats cents as euros', () => {
  assert.equal(priceTag({ sku: 'MUG-01', name: 'Mug', priceCents: 1450, currency: 'EUR' }, 'en-IE'), '€14.50');
});
