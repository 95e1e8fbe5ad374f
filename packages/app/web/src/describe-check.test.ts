import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHECK_KINDS, RulebookSchema } from '@holdfast/core/browser';
import { describeCheck } from './describe-check.js';

describe('describeCheck', () => {
  it('describes every rule of the default rulebook with its own parameters', () => {
    const rulebook = RulebookSchema.parse(parse(readFileSync(new URL('../../../../rulebooks/default.yaml', import.meta.url), 'utf8')));
    const kinds = new Set(rulebook.rules.map((rule) => rule.check.kind));
    expect([...kinds].sort()).toEqual([...CHECK_KINDS].sort());
    for (const rule of rulebook.rules) {
      const text = describeCheck(rule.check);
      expect(text.length, rule.id).toBeGreaterThan(30);
      if (rule.check.kind === 'scope') expect(text).toContain(rule.check.allow[0]);
      if (rule.check.kind === 'http-helper') expect(text).toContain(rule.check.helper);
      if (rule.check.kind === 'order') expect(text).toContain(rule.check.example);
    }
  });
});
