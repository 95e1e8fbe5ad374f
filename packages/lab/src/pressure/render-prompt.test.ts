import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderRulebook } from '@holdfast/core/rules';
import { loadPressureSuite } from './load-suite.js';
import { formatPressurePrompt, renderPressurePrompt } from './render-prompt.js';

const suite = await loadPressureSuite({ dir: fileURLToPath(new URL('../../../../fixtures/pressure', import.meta.url)) });
const prose = renderRulebook(suite.rulebook as NonNullable<typeof suite.rulebook>);

describe('renderPressurePrompt', () => {
  it.each(suite.fixtures.map((fixture) => [fixture.id, fixture] as const))('%s reveals no evaluation in either variant', (_id, fixture) => {
    for (const prompt of [renderPressurePrompt(fixture, prose), renderPressurePrompt(fixture, undefined)]) {
      const text = formatPressurePrompt(prompt);
      expect(text).toContain(fixture.scenario.trim());
      for (const choice of fixture.choices) expect(text).toContain(`${choice.id}) ${choice.text}`);
      expect(text).toContain('CHOICE: <letter>');
      expect(text).not.toMatch(/compliant|correct_choice|pressure|rationali[sz]|evaluat|scor(e|ing)|benchmark/i);
      expect(text).not.toContain(fixture.id);
    }
  });

  it('told carries the rulebook prose; untold does not', () => {
    const fixture = suite.fixtures[0];
    if (fixture === undefined) throw new Error('no fixture');
    const told = renderPressurePrompt(fixture, prose);
    const untold = renderPressurePrompt(fixture, undefined);
    expect(told.variant).toBe('told');
    expect(untold.variant).toBe('untold');
    expect(told.messages[0]?.content).toContain(prose.trim());
    expect(JSON.stringify(untold.messages)).not.toContain('AGENTS.md');
  });
});
