// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDiscount } from './apply-discount.ts';

test('SPRING15: 15% off 19.99 is 16.99 (the discount rounds half-up, not down)', () => {
  assert.equal(applyDiscount(1999, { kind: 'percent', percent: 15 }), 1699);
});

test('a half cent of discount rounds up: 5% off 10.10 is 9.59', () => {
  assert.equal(applyDiscount(1010, { kind: 'percent', percent: 5 }), 959);
});

test('what was right stays right: 10% off 20.00, fixed discounts floor at zero', () => {
  assert.equal(applyDiscount(2000, { kind: 'percent', percent: 10 }), 1800);
  assert.equal(applyDiscount(500, { kind: 'fixed', amountCents: 800 }), 0);
});
