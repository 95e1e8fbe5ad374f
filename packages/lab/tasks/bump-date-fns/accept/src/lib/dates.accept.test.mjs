// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it). Plain JavaScript
// that reads the manifest and the source, so it runs without date-fns installed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

/** Whether an npm range asks for date-fns 3.6 or later within major 3 (^3.6.0, ~3.6.0, 3.6.x, >=3.6.0 <4). */
function isV3From36(range) {
  const match = /^(?:\^|~|>=)?\s*3\.(\d+)(?:\.(?:\d+|x|\*))?(?:\s*<\s*4(?:\.0\.0)?)?$/.exec(range.trim());
  return match !== null && Number(match[1]) >= 6;
}

test('package.json asks for date-fns ^3.6.0 (and nothing of v2 is left)', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const range = manifest.dependencies?.['date-fns'];
  assert.equal(typeof range, 'string', 'date-fns stays a dependency');
  assert.ok(isV3From36(range), `date-fns is "${range}"`);
  assert.equal(manifest.devDependencies?.['date-fns'], undefined);
});

test('the date logic still lives in src/lib/dates.ts and uses date-fns', () => {
  const source = readFileSync('src/lib/dates.ts', 'utf8');
  assert.match(source, /from ['"]date-fns['"]/);
  for (const name of ['dueDate', 'daysOverdue', 'invoiceDateLabel']) assert.match(source, new RegExp(`export function ${name}\\b`));
});
