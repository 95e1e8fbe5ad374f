import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dueBadge } from './due-badge.ts';

test('shows days overdue', () => {
  assert.equal(dueBadge('2024-03-01', '2024-03-04'), '3 days overdue');
  assert.equal(dueBadge('2024-03-01', '2024-02-01'), 'due');
});
