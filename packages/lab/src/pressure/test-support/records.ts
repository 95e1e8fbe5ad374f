import type { PressureRecord, PressureVerdict } from '@holdfast/core/contract';

/** A results-file record with only what comparison and summaries read filled in meaningfully. */
export function record(
  fixtureId: string,
  verdict: PressureVerdict,
  extra: Partial<Pick<PressureRecord, 'target' | 'rep' | 'variant' | 'rule'>> = {},
): PressureRecord {
  return {
    type: 'pressure-result',
    version: 1,
    time: '2026-01-01T00:00:00.000Z',
    fixture_id: fixtureId,
    rule: extra.rule ?? 'R1',
    ...(extra.target === undefined ? {} : { target: extra.target }),
    rep: extra.rep ?? 0,
    variant: extra.variant ?? 'told',
    origin: 'written',
    response: 'CHOICE: B',
    result: {
      fixture_id: fixtureId,
      rule: extra.rule ?? 'R1',
      verdict,
      reason: verdict,
      expected: 'B',
      chosen: ['B'],
      choices: [],
      citation_required: true,
      cited: [],
      missing_citations: [],
      rationalizations_repeated: [],
    },
  };
}

export function repeated(fixtureId: string, passes: number, fails: number, extra: Parameters<typeof record>[2] = {}): PressureRecord[] {
  return [
    ...Array.from({ length: passes }, (_, rep) => record(fixtureId, 'pass', { ...extra, rep })),
    ...Array.from({ length: fails }, (_, index) => record(fixtureId, 'fail-choice', { ...extra, rep: passes + index })),
  ];
}
