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
        'a: Told: a violation landed in 0 of 2 rounds (0%, 95 % CI 0%–66%). Held: gate leaks 0 of 2; blocked and recovered 0 of 2; clean and done not judged.',
        'b: Told: a violation landed in 0 of 0 rounds. Held: gate leaks 0 of 0; blocked and recovered 0 of 0; clean and done not judged.',
      ].join('\n'),
    );
  });
});
