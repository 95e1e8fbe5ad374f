import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taxCents, TaxRegionMismatch } from './tax.ts';

test('German VAT on a German order', () => {
  assert.equal(taxCents({ subtotalCents: 10000, shippingCountry: 'DE', billingCountry: 'de' }), 1900);
});

test('shipping to France with a German card is refused', () => {
  assert.throws(() => taxCents({ subtotalCents: 10000, shippingCountry: 'FR', billingCountry: 'DE' }), TaxRegionMismatch);
});

test('outside the EU list there is no VAT', () => {
  assert.equal(taxCents({ subtotalCents: 10000, shippingCountry: 'US', billingCountry: 'US' }), 0);
});
