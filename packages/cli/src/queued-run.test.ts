import { describe, expect, it } from 'vitest';
import { workerBeatLines } from './queued-run.js';

const SEEN = Date.parse('2026-01-01T00:00:00.000Z');

describe('the coordinator at the terminal', () => {
  it('says when a worker joins, goes stale and beats again, once per change', () => {
    const known = new Map([['w1', false]]);
    expect(workerBeatLines(known, [{ id: 'w1', host: 'a', seenAt: SEEN, stale: false }])).toEqual([]);
    expect(
      workerBeatLines(known, [
        { id: 'w1', host: 'a', seenAt: SEEN, stale: false },
        { id: 'w2', host: 'b', seenAt: SEEN, stale: false },
      ]),
    ).toEqual(['Worker w2 on b joined.']);
    const stale = [{ id: 'w1', host: 'a', seenAt: SEEN, stale: true }];
    expect(workerBeatLines(known, stale)).toEqual([
      'Worker w1 on a is stale: no heartbeat since 2026-01-01T00:00:00.000Z; its rounds go back to the queue after its stall timeout.',
    ]);
    expect(workerBeatLines(known, stale)).toEqual([]);
    expect(workerBeatLines(known, [{ id: 'w1', host: 'a', seenAt: SEEN + 1, stale: false }])).toEqual(['Worker w1 on a is beating again.']);
  });

  it('names a worker already stale when first seen', () => {
    expect(workerBeatLines(new Map(), [{ id: 'w9', host: 'c', seenAt: SEEN, stale: true }])).toEqual([expect.stringMatching(/^Worker w9 on c is stale/)]);
  });
});
