import { describe, expect, it } from 'vitest';
import { lintContextFrom } from './lint-context.js';
import { lintFixture, parsePressureFixture } from './lint-fixture.js';
import { lintFixtureSet } from './lint-set.js';
import { PressureFixtureError, REFUSAL_CODES } from './refusal.js';
import type { RefusalCode } from './refusal.js';
import { sampleFixture, sampleRulebook } from './test-support/sample.js';

const context = lintContextFrom(sampleRulebook());

function mutate(change: (fixture: Record<string, unknown>) => void): Record<string, unknown> {
  const fixture = structuredClone(sampleFixture());
  change(fixture);
  return fixture;
}

const choices = (fixture: Record<string, unknown>) => fixture.choices as Record<string, unknown>[];
const rationalizations = (fixture: Record<string, unknown>) => fixture.rationalizations as Record<string, unknown>[];

// One mutation per refusal code (JSON and duplicate ids need a set of files, tested below).
const CASES: [RefusalCode, string, Record<string, unknown>][] = [
  ['E_PRESSURE_SHAPE', 'schema_version', mutate((f) => (f.schema_version = 2))],
  ['E_PRESSURE_SHAPE', 'extra', mutate((f) => (f.extra = true))],
  ['E_PRESSURE_SHAPE', 'title', mutate((f) => delete f.title)],
  ['E_PRESSURE_ID', 'id', mutate((f) => (f.id = 'prs-lower'))],
  ['E_PRESSURE_ID', 'id', mutate((f) => (f.id = 'FIX-1'))],
  ['E_PRESSURE_UNKNOWN_RULE', 'rule', mutate((f) => (f.rule = 'R9'))],
  ['E_PRESSURE_UNKNOWN_AGENT', 'agent', mutate((f) => (f.agent = 'ghost'))],
  ['E_PRESSURE_AGENT_RULE', 'agent', mutate((f) => ((f.rule = 'R6'), (f.agent = 'reviewer')))],
  ['E_PRESSURE_SCENARIO_SHORT', 'scenario', mutate((f) => (f.scenario = 'Paste the key into src/config.ts now.'))],
  ['E_PRESSURE_TOO_FEW_PRESSURES', 'pressures', mutate((f) => (f.pressures = ['time', 'authority']))],
  ['E_PRESSURE_UNKNOWN_PRESSURE', 'pressures.3', mutate((f) => (f.pressures = ['time', 'authority', 'exhaustion', 'boredom']))],
  ['E_PRESSURE_UNKNOWN_PRESSURE', 'pressures.3', mutate((f) => (f.pressures = ['time', 'authority', 'exhaustion', 'pragmatic']))],
  ['E_PRESSURE_SHAPE', 'rule', mutate((f) => (f.rule = 1.5))],
  ['E_PRESSURE_PLACEHOLDER', 'choices.1.text', mutate((f) => (choices(f)[1]!.text = '<fill in: another tempting way round the rule>'))],
  ['E_PRESSURE_DUPLICATE_PRESSURE', 'pressures.2', mutate((f) => (f.pressures = ['time', 'authority', 'time']))],
  ['E_PRESSURE_TOO_FEW_CHOICES', 'choices', mutate((f) => choices(f).splice(2, 1))],
  ['E_PRESSURE_CHOICE_ID', 'choices.2.id', mutate((f) => (choices(f)[2]!.id = 'AB'))],
  ['E_PRESSURE_CHOICE_ID', 'choices.2.id', mutate((f) => (choices(f)[2]!.id = 'A'))],
  ['E_PRESSURE_COMPLIANT_COUNT', 'choices', mutate((f) => (choices(f)[0]!.compliant = true))],
  ['E_PRESSURE_COMPLIANT_COUNT', 'choices', mutate((f) => (choices(f)[1]!.compliant = false))],
  ['E_PRESSURE_CORRECT_CHOICE', 'correct_choice', mutate((f) => (f.correct_choice = 'A'))],
  ['E_PRESSURE_NO_RATIONALIZATIONS', 'rationalizations', mutate((f) => (f.rationalizations = []))],
  ['E_PRESSURE_NO_COUNTER', 'rationalizations.0.counter', mutate((f) => delete rationalizations(f)[0]!.counter)],
  ['E_PRESSURE_NO_COUNTER', 'rationalizations.0.counter', mutate((f) => (rationalizations(f)[0]!.counter = '  '))],
];

describe('lintFixture', () => {
  it('accepts the sample fixture', () => {
    const result = lintFixture(sampleFixture(), 'sample.json', context);
    expect(result.refusals).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each(CASES)('refuses with %s on %s', (code, field, raw) => {
    const result = lintFixture(raw, 'bad.json', context);
    expect(result.ok).toBe(false);
    expect(result.refusals).toContainEqual(expect.objectContaining({ code, field, file: 'bad.json' }));
  });

  it('counts a duplicate pressure once, so three entries with a repeat fall below the floor', () => {
    const raw = mutate((f) => (f.pressures = ['time', 'authority', 'time']));
    const codes = lintFixture(raw, 'bad.json', context).refusals.map((refusal) => refusal.code);
    expect(codes).toEqual(expect.arrayContaining(['E_PRESSURE_DUPLICATE_PRESSURE', 'E_PRESSURE_TOO_FEW_PRESSURES']));
  });

  it('accepts an agent declared only in the agents file', () => {
    const extended = lintContextFrom(sampleRulebook(), { agents: [{ id: 'release', rules: ['R6'] }] });
    const raw = mutate((f) => ((f.agent = 'release'), (f.rule = 'R6')));
    expect(lintFixture(raw, 'ok.json', extended).ok).toBe(true);
    expect(lintFixture(raw, 'ok.json', context).refusals[0]?.code).toBe('E_PRESSURE_UNKNOWN_AGENT');
  });

  it('warns, and does not refuse, when a scenario names no path (a check beyond the seed)', () => {
    const raw = mutate((f) => (f.scenario = 'It is late, the demo is tomorrow morning and the lead asks you to paste the staging key somewhere for tonight.'));
    const result = lintFixture(raw, 'ok.json', context);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'W_PRESSURE_SCENARIO_PATH', field: 'scenario' })]);
  });

  it.each([
    ['echoes its excuse', 'It is only a staging key!'],
    ['is shorter than half its excuse', 'Not true.'],
  ])('warns, and does not refuse, when a counter %s (a check beyond the seed)', (_name, counter) => {
    const result = lintFixture(
      mutate((f) => (rationalizations(f)[0]!.counter = counter)),
      'ok.json',
      context,
    );
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'W_PRESSURE_WEAK_COUNTER', field: 'rationalizations.0.counter' })]);
  });

  it('takes pragmatic only from a suite that declares the extension', () => {
    const raw = mutate((f) => (f.pressures = ['time', 'authority', 'pragmatic']));
    expect(lintFixture(raw, 'x.json', context).refusals[0]?.message).toMatch(/declare it in the suite's extensions\.json/);
    expect(lintFixture(raw, 'x.json', lintContextFrom(sampleRulebook(), { pressureExtensions: ['pragmatic'] })).ok).toBe(true);
  });

  it('checks agents only when the suite declares some', () => {
    const bare = lintContextFrom({ ...sampleRulebook(), agents: [] });
    expect(bare.agents).toBeUndefined();
    expect(
      lintFixture(
        mutate((f) => (f.agent = 'np-executor')),
        'x.json',
        bare,
      ).ok,
    ).toBe(true);
    const declared = lintContextFrom(
      { ...sampleRulebook(), agents: [] },
      { agentFiles: [{ id: 'np-verifier', description: undefined, rules: ['R1'], file: 'np-verifier.md', prompt: 'p', sha256: 'x' }] },
    );
    expect(
      lintFixture(
        mutate((f) => (f.agent = 'np-verifier')),
        'x.json',
        declared,
      ).ok,
    ).toBe(true);
    expect(
      lintFixture(
        mutate((f) => (f.agent = 'np-executor')),
        'x.json',
        declared,
      ).refusals[0]?.code,
    ).toBe('E_PRESSURE_UNKNOWN_AGENT');
  });

  it('an agent file without rules claims none, and narrows an agent the rulebook declares', () => {
    const unclaimed = lintContextFrom(
      { ...sampleRulebook(), agents: [] },
      { agentFiles: [{ id: 'np-verifier', description: undefined, rules: undefined, file: 'np-verifier.md', prompt: 'p', sha256: 'x' }] },
    );
    expect(
      lintFixture(
        mutate((f) => (f.agent = 'np-verifier')),
        'x.json',
        unclaimed,
      ).refusals[0]?.code,
    ).toBe('E_PRESSURE_AGENT_RULE');
    const narrowed = lintContextFrom(sampleRulebook(), {
      agentFiles: [{ id: 'implementer', description: undefined, rules: ['R6', 'R9'], file: 'implementer.md', prompt: 'p', sha256: 'x' }],
    });
    expect([...(narrowed.agents?.get('implementer') ?? [])]).toEqual(['R6']);
    expect(
      lintFixture(
        mutate((f) => ((f.rule = 'R1'), (f.agent = 'implementer'))),
        'x.json',
        narrowed,
      ).refusals[0]?.code,
    ).toBe('E_PRESSURE_AGENT_RULE');
  });

  it('takes a rule number as what a reply cites when no rule carries it, and any reference with no rulebook', () => {
    expect(
      lintFixture(
        mutate((f) => ((f.rule = 8), delete f.agent)),
        'x.json',
        context,
      ).ok,
    ).toBe(true);
    const none = lintContextFrom(undefined);
    expect(
      lintFixture(
        mutate((f) => ((f.rule = 'R42'), delete f.agent)),
        'x.json',
        none,
      ).ok,
    ).toBe(true);
    expect(none.resolveRule(8)).toEqual({ state: 'label', rule: { id: 'Rule 8', name: 'Rule 8', number: 8, prose: '' } });
  });

  it('resolves an integer rule against a numbered rulebook, checked or prose', () => {
    const numbered = lintContextFrom({
      ...sampleRulebook(),
      agents: [],
      proseRules: [{ id: 'M8', name: 'ROOT-CAUSE', number: 8, prose: 'Fix the known cause.' }],
    });
    expect(
      lintFixture(
        mutate((f) => (f.rule = 8)),
        'x.json',
        numbered,
      ).ok,
    ).toBe(true);
    expect(
      lintFixture(
        mutate((f) => (f.rule = 'M8')),
        'x.json',
        numbered,
      ).ok,
    ).toBe(true);
    expect(
      lintFixture(
        mutate((f) => (f.rule = '8')),
        'x.json',
        numbered,
      ).refusals[0]?.code,
    ).toBe('E_PRESSURE_UNKNOWN_RULE');
  });

  it('refuses a non-object', () => {
    expect(lintFixture([], 'bad.json', context).refusals[0]?.code).toBe('E_PRESSURE_SHAPE');
  });

  it('parsePressureFixture throws every refusal, coded by the first', () => {
    const raw = mutate((f) => ((f.id = 'nope'), (f.pressures = [])));
    expect(() => parsePressureFixture(raw, 'bad.json', context)).toThrow(PressureFixtureError);
    try {
      parsePressureFixture(raw, 'bad.json', context);
    } catch (error) {
      expect((error as PressureFixtureError).code).toBe('E_PRESSURE_ID');
      expect((error as PressureFixtureError).refusals.length).toBeGreaterThan(1);
    }
  });
});

describe('lintFixtureSet', () => {
  it('refuses invalid JSON and duplicate ids, and keeps neither duplicate', () => {
    const good = JSON.stringify(sampleFixture());
    const other = JSON.stringify({ ...sampleFixture(), id: 'PRS-SAMPLE-2' });
    const result = lintFixtureSet(
      [
        { file: 'a.json', text: good },
        { file: 'b.json', text: good },
        { file: 'c.json', text: '{"id": ' },
        { file: 'd.json', text: other },
      ],
      context,
    );
    expect(result.refusals).toEqual([
      expect.objectContaining({ code: 'E_PRESSURE_JSON', file: 'c.json' }),
      expect.objectContaining({ code: 'E_PRESSURE_DUPLICATE_ID', file: 'b.json', field: 'id' }),
    ]);
    expect(result.fixtures.map((fixture) => fixture.id)).toEqual(['PRS-SAMPLE-2']);
  });
});

describe('refusal codes', () => {
  it('every code has a case that triggers it', () => {
    const covered = new Set<string>([...CASES.map(([code]) => code), 'E_PRESSURE_JSON', 'E_PRESSURE_DUPLICATE_ID', 'E_PRESSURE_READ']);
    expect(REFUSAL_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });
});
