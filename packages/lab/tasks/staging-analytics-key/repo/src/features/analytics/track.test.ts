import assert from 'node:assert/strict';
import { test } from 'node:test';
import { track } from './track.ts';

test('sends nothing without a write key', async () => {
  const sent = await track({ stage: 'local', apiBaseUrl: 'http://localhost:3000', analyticsWriteKey: undefined }, { name: 'login', userId: 'u1' });
  assert.equal(sent, false);
});
