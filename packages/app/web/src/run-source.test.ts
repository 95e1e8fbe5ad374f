import { describe, expect, it } from 'vitest';
import { hashOfSource, sameSource, sourceFromHash } from './run-source.js';

describe('run source in the URL hash', () => {
  it('round-trips saved runs and live runs, names with odd characters included', () => {
    for (const source of [
      { kind: 'file', name: 'example.jsonl' },
      { kind: 'file', name: 'a b#c.jsonl' },
      { kind: 'live', runId: 'run-20260101-000000-abc' },
    ] as const) {
      expect(sourceFromHash(hashOfSource(source))).toEqual(source);
    }
  });

  it('ignores hashes that name no run', () => {
    expect(sourceFromHash('')).toBeUndefined();
    expect(sourceFromHash('#/runs/')).toBeUndefined();
    expect(sourceFromHash('#/other/x')).toBeUndefined();
  });

  it('reads the run before the view part of the hash', () => {
    expect(sourceFromHash('#/runs/a%3Fb.jsonl?tab=rounds&round=x')).toEqual({ kind: 'file', name: 'a?b.jsonl' });
    expect(sourceFromHash('#/live/run-1?tab=totals')).toEqual({ kind: 'live', runId: 'run-1' });
  });

  it('compares sources by what they open', () => {
    expect(sameSource({ kind: 'file', name: 'a' }, { kind: 'file', name: 'a' })).toBe(true);
    expect(sameSource({ kind: 'file', name: 'a' }, { kind: 'live', runId: 'a' })).toBe(false);
  });
});
