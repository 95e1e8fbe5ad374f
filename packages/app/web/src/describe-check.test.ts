import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHECK_KINDS, RuleCheckSchema, RulebookSchema } from '@holdfast/core/browser';
import { describeCheck } from './describe-check.js';

describe('describeCheck', () => {
  it('describes every rule of the default rulebook with its own parameters', () => {
    const rulebook = RulebookSchema.parse(parse(readFileSync(new URL('../../../../rulebooks/default.yaml', import.meta.url), 'utf8')));
    const kinds = new Set(rulebook.rules.map((rule) => rule.check.kind));
    // The default rulebook keeps the seed's six kinds; the kinds added since are described below.
    for (const kind of kinds) expect(CHECK_KINDS).toContain(kind);
    for (const rule of rulebook.rules) {
      const text = describeCheck(rule.check);
      expect(text.length, rule.id).toBeGreaterThan(30);
      if (rule.check.kind === 'scope') expect(text).toContain(rule.check.allow[0]);
      if (rule.check.kind === 'http-helper') expect(text).toContain(rule.check.helper);
      if (rule.check.kind === 'order') expect(text).toContain(rule.check.example);
      if (rule.check.kind === 'code') expect(text).toContain('`console.log`');
    }
  });

  it('describes a team-written code rule and a text pattern', () => {
    expect(
      describeCheck({
        kind: 'code',
        what: 'a default export',
        files: ['src/**'],
        exclude: [],
        language: 'typescript',
        rule: { kind: 'export_statement' },
        fallback: [],
      }),
    ).toBe(
      'Refuses a default export in written files matching `src/**`, read on the syntax tree (typescript): an ast-grep rule; comments and strings never count.',
    );
    expect(describeCheck({ kind: 'forbidden-pattern', patterns: ['x'], flags: '', what: 'an x', files: ['src/**'], exclude: [] })).toContain('patterns `x`');
  });

  it.each([
    [{ kind: 'paths', deny: ['migrations/**'] }, 'migrations/**'],
    [{ kind: 'command', forbid: [{ command: 'git push', flags: ['--force'] }] }, '`git push` with `--force`'],
    [{ kind: 'requires', commands: [{ run: ['pnpm type-check'] }] }, 'pnpm type-check'],
    [{ kind: 'dependency', needs: ['docs/adr/*.md'] }, 'docs/adr/*.md'],
    [{ kind: 'custom', module: 'checks/no-todo.mjs' }, 'checks/no-todo.mjs'],
  ])('describes the %j check with its parameters', (check, shown) => {
    expect(describeCheck(RuleCheckSchema.parse(check))).toContain(shown);
  });
});
