import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daysOverdue, dueDate, invoiceDateLabel } from './dates.ts';

test('net 30 from the last day of January', () => {
  assert.equal(dueDate('2024-01-31', 30), '2024-03-01');
});

test('not overdue before the due date', () => {
  assert.equal(daysOverdue('2024-03-01', '2024-02-20'), 0);
  assert.equal(daysOverdue('2024-03-01', '2024-03-04'), 3);
});

test('label for the invoice header', () => {
  assert.equal(invoiceDateLabel('2024-03-01'), '1 Mar 2024');
});
