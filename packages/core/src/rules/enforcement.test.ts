import { describe, expect, it } from 'vitest';
import { parseRulebook } from './parse-rulebook.js';
import { byEnforcement, enforcementOf } from './enforcement.js';

const rulebook = parseRulebook(
  [
    'version: 1',
    'rules:',
    "  - { id: R1, name: SCOPE, prose: Stay in src/., check: { kind: scope, allow: ['src/**'] } }",
    "  - { id: R2, name: NOLOG, prose: No logs., enforcement: warn, check: { kind: forbidden-pattern, patterns: ['console\\.log'], what: a log, files: ['**'] } }",
    "  - { id: GATE, name: NAMED, prose: A rule named like the gate., enforcement: warn, check: { kind: scope, allow: ['**'] } }",
    "  - { id: R3, name: STRICT, prose: Stated strict., enforcement: block, check: { kind: scope, allow: ['**'] } }",
    'proseRules:',
    '  - { id: P1, name: KIND, prose: Be kind. }',
    '',
  ].join('\n'),
  'levels.yaml',
);

describe('enforcement levels', () => {
  it('a rule without the field blocks, so a hand-written rulebook keeps its meaning; warn is read as written', () => {
    expect(enforcementOf(rulebook, 'R1')).toBe('block');
    expect(enforcementOf(rulebook, 'R2')).toBe('warn');
    expect(enforcementOf(rulebook, 'R3')).toBe('block');
    expect(enforcementOf(rulebook, 'R9')).toBe('block');
  });

  it("the gate's own findings always block, even when a rulebook names a warn rule after them", () => {
    expect(enforcementOf(rulebook, 'GATE')).toBe('block');
    expect(enforcementOf(rulebook, 'INTERNAL')).toBe('block');
    const findings = [{ rule: 'GATE' }, { rule: 'R2' }, { rule: 'R1' }, { rule: 'R2' }];
    expect(byEnforcement(rulebook, findings)).toEqual({ blocking: [{ rule: 'GATE' }, { rule: 'R1' }], warnings: [{ rule: 'R2' }, { rule: 'R2' }] });
  });

  it('refuses a level that is not block or warn, naming the field', () => {
    expect(() =>
      parseRulebook("version: 1\nrules:\n  - { id: R1, name: A, prose: p., enforcement: error, check: { kind: scope, allow: ['**'] } }\n", 'bad.yaml'),
    ).toThrow(/enforcement/);
  });
});
