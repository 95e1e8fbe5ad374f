import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParseMethod } from '../contract/index.js';
import { ReadingList, combineReadings, readValue } from './readings.js';
import type { Reading } from './readings.js';

const VALUES: unknown[] = [
  { type: 'run', cmd: 'ls' },
  { type: 'write', path: 'a.ts', content: 'x' },
  { type: 'x' },
  { type: 'run' },
  { type: 'run', cmd: 1 },
  { type: 'commit', message: 'm', extra: true },
  { actions: [{ type: 'run', cmd: 'ls' }] },
  { actions: [{ type: 'x' }] },
  { actions: [] },
  { actions: [], reasoning: 'nothing to do' },
  { actions: 'x' },
  { decline: 'not this' },
  { reasoning: 'why' },
  {},
  [{ type: 'run', cmd: 'ls' }, { type: 'x' }],
  [{ actions: [{ type: 'run', cmd: 'ls' }] }, { type: 'x' }],
  'text',
];

const readings = fc
  .array(fc.tuple(fc.constantFrom(...VALUES), fc.constantFrom<ParseMethod>('object', 'fenced')), { maxLength: 40 })
  .map((values) => values.flatMap(([value, origin]) => readValue(value, origin)));
const options = fc.record({ bareActions: fc.boolean(), merged: fc.constantFrom<ParseMethod>('salvaged', 'repaired') });

function listOf(all: readonly Reading[]): ReadingList {
  const list = new ReadingList();
  for (const reading of all) list.add(reading);
  return list;
}

describe('ReadingList', () => {
  it('combines to the same answer as the readings kept one by one', () =>
    fc.assert(
      fc.property(readings, options, (all, combine) => {
        expect(combineReadings(listOf(all).readings, combine)).toEqual(combineReadings(all, combine));
      }),
      { numRuns: 2_000 },
    ));

  it('keeps the first failing action object in place of every later one', () => {
    const run = readValue({ type: 'run', cmd: 'ls' }, 'object');
    const failing = readValue({ type: 'x' }, 'object');
    const later = Array.from({ length: 1_000 }, (_, index) => readValue({ type: index % 2 === 0 ? 'x' : 'run', cmd: 'ls' }, 'fenced')).flat();
    const reply = readValue({ actions: [{ type: 'x' }] }, 'object');
    const kept = listOf([...run, ...failing, ...later, ...reply]).readings;
    expect(kept).toHaveLength(1_003);
    expect(kept[0]).toBe(run[0]);
    expect(new Set(kept.slice(1, -1))).toEqual(new Set(failing));
    expect(kept[1_002]).toBe(reply[0]);
  });
});
