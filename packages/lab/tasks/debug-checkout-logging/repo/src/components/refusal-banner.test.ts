import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusalBanner } from './refusal-banner.ts';

test('explains a tax region mismatch', () => {
  assert.match(refusalBanner('tax region mismatch'), /billing and shipping countries/);
});
