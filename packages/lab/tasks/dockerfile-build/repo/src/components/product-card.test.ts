import assert from 'node:assert/strict';
import { test } from 'node:test';
import { productCard } from './product-card.ts';

test('name, sku and price', () => {
  assert.equal(productCard({ sku: 'MUG-01', name: 'Enamel mug', priceCents: 1450, price: '€14.50' }), 'Enamel mug (MUG-01): €14.50');
});
