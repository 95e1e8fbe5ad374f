import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LABEL_HEIGHT, cellSizeFor, heldTop, hitTest, layoutStrip } from './strip-layout.js';

describe('layoutStrip', () => {
  it('puts each target in its own band, in the planned order, even before it has rounds', () => {
    const layout = layoutStrip([{ target: 'b' }, { target: 'a' }, { target: 'b' }], ['a', 'b', 'c'], 400);
    expect(layout.bands.map((band) => [band.target, band.rounds])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 0],
    ]);
    expect(layout.y[1]).toBe(LABEL_HEIGHT);
    expect(layout.x[2]).toBeGreaterThan(layout.x[0] ?? 0);
  });

  it('shrinks cells as the run grows', () => {
    expect(cellSizeFor(48)).toBeGreaterThan(cellSizeFor(5000));
  });

  it('finds the round and arm under every cell it laid out, and nothing between bands', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 300 }), fc.integer({ min: 50, max: 1200 }), (targets, width) => {
        const rounds = targets.map((target) => ({ target }));
        const layout = layoutStrip(rounds, ['a'], width);
        rounds.forEach((_, index) => {
          const left = (layout.x[index] ?? 0) + 1;
          expect(hitTest(layout, left, (layout.y[index] ?? 0) + 1)).toEqual({ index, arm: 'told' });
          expect(hitTest(layout, left, heldTop(layout, index) + 1)).toEqual({ index, arm: 'held' });
          expect((layout.x[index] ?? 0) + layout.cell).toBeLessThanOrEqual(layout.width);
        });
        expect(hitTest(layout, 1, 1)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});
