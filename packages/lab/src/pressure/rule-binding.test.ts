import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RulebookSchema } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { ruleBinding } from './rule-binding.js';
import { sameRuleMeaning } from './rule-meaning.js';

const shipped = await loadRulebook(fileURLToPath(new URL('../../../../rulebooks/default.yaml', import.meta.url)));

/** A team's rulebook whose ids say nothing about the shipped ones: R4 is its test-before-commit rule. */
const team = RulebookSchema.parse({
  version: 1,
  rules: [
    { id: 'R1', name: 'LOCKFILE', prose: 'Do not edit the lock file.', check: { kind: 'paths', deny: ['pnpm-lock.yaml'] } },
    { id: 'R4', name: 'ORDER', prose: 'Run pnpm test before committing.', check: { kind: 'order', command: '^pnpm test$', example: 'pnpm test' } },
    {
      id: 'R7',
      name: 'NO-CONSOLE-LOG',
      prose: 'Never use `console.log`.',
      check: { kind: 'forbidden-pattern', patterns: ['\\bconsole\\s*\\.\\s*log\\b'], what: '`console.log`', files: ['packages/**/*.ts'] },
    },
    { id: 'R8', name: 'NO-EVAL', prose: 'Never use `eval`.', check: { kind: 'code', what: 'an eval call', files: ['**/*.ts'], forbid: { names: ['eval'] } } },
  ],
  proseRules: [{ id: 'R9', name: 'KIND', prose: 'Be kind in reviews.' }],
});

describe('sameRuleMeaning', () => {
  const check = (id: string) => (shipped.rules.find((rule) => rule.id === id) ?? team.rules.find((rule) => rule.id === id))!.check;

  it('matches single-meaning kinds by kind, code-forbidding checks by what they forbid', () => {
    expect(sameRuleMeaning(check('R6'), team.rules[1]!.check)).toBe(true);
    expect(sameRuleMeaning(check('R4'), team.rules[2]!.check)).toBe(true);
    expect(sameRuleMeaning(check('R4'), team.rules[3]!.check)).toBe(false);
    expect(sameRuleMeaning(check('R2'), team.rules[0]!.check)).toBe(false);
  });
});

describe('ruleBinding', () => {
  const bind = ruleBinding({ rulebook: team, home: shipped });

  it('binds a shipped fixture to the team rule that means the same, never to the same id', () => {
    expect(bind('R4')).toMatchObject({ state: 'bound', via: 'meaning', rule: { id: 'R7', name: 'NO-CONSOLE-LOG' } });
    expect(bind('R6')).toMatchObject({ state: 'bound', via: 'meaning', rule: { id: 'R4', name: 'ORDER' } });
  });

  it('leaves a fixture unbound where the team has no such rule, and refuses a reference its own rulebook lacks', () => {
    expect(bind('R1')).toMatchObject({ state: 'unbound', reason: expect.stringContaining('R1 SECRET (a secret check)') });
    expect(bind('R9')).toMatchObject({ state: 'missing' });
  });

  it('takes an explicit mapping over meaning, and refuses a mapping to a rule that does not exist', () => {
    const mapped = ruleBinding({ rulebook: team, home: shipped, mapping: { R1: 'R9', R2: 'R99' } });
    expect(mapped('R1')).toMatchObject({ state: 'bound', via: 'mapping', rule: { id: 'R9' } });
    expect(mapped('R2')).toMatchObject({ state: 'missing', reason: expect.stringContaining('"R99"') });
  });

  it('calls two team rules with the same meaning ambiguous rather than picking one', () => {
    const twice = RulebookSchema.parse({ ...team, rules: [...team.rules, { ...team.rules[1]!, id: 'R5', name: 'ORDER-TOO' }] });
    expect(ruleBinding({ rulebook: twice, home: shipped })('R6')).toMatchObject({ state: 'unbound', reason: expect.stringContaining('R4, R5') });
  });

  it('with no suite rulebook, binds by reference; with no rulebook at all, a reference is a label', () => {
    expect(ruleBinding({ rulebook: team, home: undefined })('R4')).toMatchObject({ state: 'bound', via: 'ref', rule: { id: 'R4' } });
    expect(ruleBinding({ rulebook: team, home: undefined })('R42')).toMatchObject({ state: 'missing' });
    expect(ruleBinding({ rulebook: team, home: undefined })(8)).toMatchObject({ state: 'label', rule: { id: 'Rule 8', number: 8 } });
    expect(ruleBinding({ rulebook: undefined, home: undefined })('R42')).toMatchObject({ state: 'label', rule: { id: 'R42' } });
  });
});
