import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PersistentList } from './persistent-list.js';

type Operation = { kind: 'push'; value: number } | { kind: 'set'; at: number; value: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), value: fc.integer() }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer() }),
);

describe('PersistentList', () => {
  it('behaves like an array copied on every change, and never changes an earlier version', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
        let list = PersistentList.empty<number>();
        let model: number[] = [];
        const history: [PersistentList<number>, number[]][] = [];
        for (const step of operations) {
          history.push([list, model]);
          if (step.kind === 'push') {
            list = list.push(step.value);
            model = [...model, step.value];
          } else if (model.length > 0) {
            const at = step.at % model.length;
            list = list.set(at, step.value);
            model = model.map((value, index) => (index === at ? step.value : value));
          }
        }
        expect(list.length).toBe(model.length);
        expect(list.toArray()).toEqual(model);
        expect([...list]).toEqual(model);
        for (const [version, expected] of history) expect(version.toArray()).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('answers undefined outside its bounds and refuses to set there', () => {
    const list = PersistentList.from([1, 2, 3]);
    expect(list.at(3)).toBeUndefined();
    expect(list.at(-1)).toBeUndefined();
    expect(() => list.set(3, 9)).toThrow(RangeError);
  });

  it('serializes as a plain array', () => {
    expect(JSON.stringify({ rounds: PersistentList.from(['a', 'b']) })).toBe('{"rounds":["a","b"]}');
  });

  it('reuses its array until it changes', () => {
    const list = PersistentList.from(Array.from({ length: 200 }, (_, index) => index));
    expect(list.toArray()).toBe(list.toArray());
    expect(list.push(200).toArray()).not.toBe(list.toArray());
  });
});
