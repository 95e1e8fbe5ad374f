import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from './env.ts';

test('defaults to local without a key', () => {
  assert.deepEqual(loadConfig({}), { stage: 'local', apiBaseUrl: 'http://localhost:3000', analyticsWriteKey: undefined });
});

test('refuses an unknown stage', () => {
  assert.throws(() => loadConfig({ APP_STAGE: 'prod' }), /unknown APP_STAGE/);
});
