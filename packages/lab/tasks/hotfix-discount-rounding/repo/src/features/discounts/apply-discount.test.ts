import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDiscount } from './apply-discount.ts';

test('fixed discount never goes below zero', () => {
  assert.equal(applyDiscount(500, { kind: 'fixed', amountCents: 800 }), 0);
});

test('10% off 20.00', () => {
  assert.equal(applyDiscount(2000, { kind: 'percent', percent: 10 }), 1800);
});
