import assert from 'node:assert/strict';
import { test } from 'node:test';
import { remindersDue } from './reminders.ts';

test('reminds on day 7 only when unpaid', () => {
  const invoices = [
    { id: 'inv-1', dueOn: '2024-03-01', paid: false },
    { id: 'inv-2', dueOn: '2024-03-01', paid: true },
    { id: 'inv-3', dueOn: '2024-03-02', paid: false },
  ];
  assert.deepEqual(remindersDue(invoices, '2024-03-08'), ['inv-1']);
});
