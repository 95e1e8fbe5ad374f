import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeOrder } from './place-order.ts';

test('total includes VAT', () => {
  assert.deepEqual(placeOrder({ subtotalCents: 5000, shippingCountry: 'NL', billingCountry: 'NL' }), { ok: true, totalCents: 6050 });
});

test('a mismatch is a refusal, not a crash', () => {
  const result = placeOrder({ subtotalCents: 5000, shippingCountry: 'IE', billingCountry: 'DE' });
  assert.equal(result.ok, false);
});
