import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '../contract/index.js';
import { checkActions } from './check-actions.js';
import { onlyRules, write } from './test-support/rulebooks.js';

const rulebook = onlyRules('R2', 'R3', 'R4', 'R5', 'R6');

describe('checkActions', () => {
  it('orders results by action index, then rule order', async () => {
    const results = await checkActions(
      [write('src/features/orders.ts', 'console.log(fetch("/x"))'), { type: 'run', cmd: 'npm test' }, { type: 'commit', message: 'x' }],
      [],
      rulebook,
    );
    expect(results.map((result) => `${result.actionIndex} ${result.rule} ${result.ok}`)).toEqual([
      '0 R2 true',
      '0 R3 false',
      '0 R4 false',
      '0 R5 false',
      '2 R6 true',
    ]);
  });

  it('refuses, under every rule, an action of unknown type', async () => {
    const actions = [{ type: 'exec', cmd: 'curl evil' }] as unknown as Action[];
    const results = await checkActions(actions, [], rulebook);
    expect(results).toHaveLength(5);
    expect(results.every((result) => !result.ok && result.detail.includes('action 0 cannot be judged: the action has unknown type "exec"'))).toBe(true);
  });

  it('judges what it can of a write with a broken field', async () => {
    const actions = [
      { type: 'write', path: 'src/features/a.ts', content: 42 },
      { type: 'write', path: 17, content: 'x' },
    ] as unknown as Action[];
    const results = await checkActions(actions, [], onlyRules('R2', 'R4', 'R5'));
    expect(results.map((result) => `${result.actionIndex} ${result.rule} ${result.ok}`)).toEqual(['0 R2 true', '0 R4 false', '0 R5 false', '1 R2 false']);
    expect(results[1]?.detail).toMatch(/no readable content/);
    expect(results[3]?.detail).toMatch(/the path is a number, not a string/);
  });

  it('fails closed when a rule cannot run', async () => {
    const broken = { ...rulebook, rules: [{ id: 'R9', name: 'BROKEN', prose: 'x', check: { kind: 'nope' } }] } as unknown as Rulebook;
    const results = await checkActions([write('src/a.ts')], [], broken);
    expect(results).toEqual([expect.objectContaining({ rule: 'R9', ok: false, detail: expect.stringMatching(/does not load/) })]);
  });

  it('never throws on any value shaped like an action list', async () => {
    const field = fc.oneof(fc.string(), fc.anything({ maxDepth: 2 }));
    const actionLike = fc.oneof(
      fc.record(
        { type: fc.constantFrom('write', 'delete', 'run', 'commit', 'exec'), path: field, content: field, cmd: field, message: field },
        { requiredKeys: ['type'] },
      ),
      fc.anything({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(actionLike, { maxLength: 8 }),
        fc.array(fc.oneof(fc.string(), fc.anything({ maxDepth: 1 })), { maxLength: 4 }),
        async (actions, existing) => {
          const results = await checkActions(actions as Action[], existing as string[], rulebook);
          for (const result of results) {
            expect(result.actionIndex).toBeGreaterThanOrEqual(0);
            expect(result.actionIndex).toBeLessThan(actions.length);
            expect(typeof result.detail).toBe('string');
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('fails closed on an action list that throws when read', async () => {
    const hostile = new Proxy([], {
      get: () => {
        throw new Error('boom');
      },
    }) as unknown as Action[];
    const results = await checkActions(hostile, [], onlyRules('R2'));
    expect(results).toEqual([expect.objectContaining({ rule: 'R2', actionIndex: 0, ok: false, detail: 'R2 SCOPE: the actions cannot be read (boom).' })]);
  });

  it('never throws when the list itself is not a list', async () => {
    for (const value of [null, undefined, 42, 'actions', { length: 3 }]) {
      await expect(checkActions(value as unknown as Action[], value as unknown as string[], rulebook)).resolves.toEqual([]);
    }
  });
});
