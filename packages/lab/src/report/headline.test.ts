import { describe, expect, it } from 'vitest';
import type { ArmTotals, Rate, Totals } from '@holdfast/core/contract';
import { ArmTotalsSchema } from '@holdfast/core/contract';
import { toRate } from '@holdfast/core/stats';
import { formatHeadlines, headlines } from './headline.js';

function arm(target: string, side: 'told' | 'held', fields: Partial<ArmTotals>): ArmTotals {
  const empty: Rate = toRate(0, 0);
  return ArmTotalsSchema.parse({
    target,
    arm: side,
    rounds: 0,
    roundsWithAttempt: empty,
    roundsLanded: empty,
    clean: empty,
    attempts: 0,
    landed: 0,
    blocked: 0,
    refused: 0,
    declined: 0,
    unparseable: 0,
    errors: 0,
    perRule: [],
    passK: [],
    ...fields,
  });
}

describe('headlines', () => {
  it('states told landings with their interval, and held leaks, recoveries and clean-and-done of their n', () => {
    const totals: Totals = {
      arms: [
        arm('local', 'told', { rounds: 8, roundsLanded: toRate(3, 8), clean: toRate(4, 8) }),
        arm('local', 'held', { rounds: 9, errors: 1, clean: toRate(2, 8), evaded: 1, recovered: 4, cleanAndDone: toRate(5, 7) }),
      ],
    };
    const [headline] = headlines(totals);
    expect(headline!.held.leaks).toMatchObject({ count: 1, n: 8 });
    expect(headline!.text).toBe(
      'Told: a violation landed in 3 of 8 rounds (38%, 95 % CI 14%–69%). Held: gate leaks 1 of 8; blocked and recovered 4 of 8; clean and done 5 of 7.',
    );
  });

  it('says "not judged" where done could not be judged, and names each target when there are several', () => {
    const totals: Totals = {
      arms: [
        arm('a', 'told', { roundsLanded: toRate(0, 2), clean: toRate(2, 2) }),
        arm('a', 'held', { clean: toRate(2, 2) }),
        arm('b', 'told', {}),
        arm('b', 'held', {}),
      ],
    };
    expect(formatHeadlines(totals)).toBe(
      [
        'a: Told: a violation landed in 0 of 2 rounds (0%, 95 % CI 0%–66%). Held: gate leaks 0 of 2; clean and done not judged.',
        'b: Told: a violation landed in 0 of 0 rounds. Held: gate leaks 0 of 0; clean and done not judged.',
      ].join('\n'),
    );
  });

  it('prints "blocked and recovered" only where sessions can recover (loop and agent modes), never "0 of N" in plan mode', () => {
    const plan = headlines({ arms: [arm('p', 'told', { rounds: 2, roundsLanded: toRate(0, 2) }), arm('p', 'held', { rounds: 2, clean: toRate(2, 2) })] });
    expect(plan[0]!.text).not.toContain('recovered');
    const loop = headlines({ arms: [arm('l', 'told', { rounds: 2, sessions: 2 }), arm('l', 'held', { rounds: 2, sessions: 2, clean: toRate(2, 2) })] });
    expect(loop[0]!.text).toContain('blocked and recovered 0 of 2');
  });

  it('gives a target with no judgeable reply no rate: "no evidence", naming empty, unparseable and error replies', () => {
    const allEmpty = headlines({
      arms: [arm('t', 'told', { rounds: 1, unparseable: 1, empty: 1, roundsLanded: toRate(0, 1) }), arm('t', 'held', { rounds: 1, unparseable: 1, empty: 1 })],
    });
    expect(allEmpty[0]!.noEvidence).toEqual({ replies: 2, empty: 2, unparseable: 0, errors: 0 });
    expect(allEmpty[0]!.text).toBe('no evidence — 2 of 2 replies were empty: nothing was judged, so this target has no rate.');
    const mixed = headlines({ arms: [arm('m', 'told', { rounds: 2, unparseable: 2, empty: 1 }), arm('m', 'held', { rounds: 2, errors: 2 })] });
    expect(mixed[0]!.text).toBe('no evidence — 4 of 4 replies were empty (1), unparseable (1), errors (2): nothing was judged, so this target has no rate.');
    const oneJudged = headlines({
      arms: [arm('o', 'told', { rounds: 2, unparseable: 1, roundsLanded: toRate(0, 2) }), arm('o', 'held', { rounds: 2, errors: 2 })],
    });
    expect(oneJudged[0]!.noEvidence).toBeUndefined();
  });
});
