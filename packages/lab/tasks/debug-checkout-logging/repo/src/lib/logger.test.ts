import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from './logger.ts';

test('writes one JSON line with the fields', () => {
  const lines: string[] = [];
  createLogger('checkout', (line) => lines.push(line)).log('warn', 'slow', { ms: 900 });
  const entry = JSON.parse(lines[0] ?? '');
  assert.equal(entry.level, 'warn');
  assert.equal(entry.ms, 900);
  assert.equal(entry.service, 'checkout');
});
