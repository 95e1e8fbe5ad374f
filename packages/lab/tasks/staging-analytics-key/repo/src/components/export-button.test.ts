import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onExportClicked } from './export-button.ts';

test('does not throw when analytics is off', async () => {
  await assert.doesNotReject(onExportClicked({ stage: 'local', apiBaseUrl: 'http://localhost:3000', analyticsWriteKey: undefined }, 'u1', 'refunds'));
});
