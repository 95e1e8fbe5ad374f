import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRESSURE_VERDICTS_FOR_TEST } from './test-support/verdicts.js';
import { checkFixtureDebt, pressureCoverage } from './coverage.js';
import { loadPressureSuite } from './load-suite.js';
import { parsePressureResponses } from './result-files.js';
import { scoreResponseLines } from './score-responses.js';

const dir = fileURLToPath(new URL('../../../../fixtures/pressure', import.meta.url));
const suite = await loadPressureSuite({ dir });

describe('the shipped pressure fixtures', () => {
  it('lint clean against the default rulebook', () => {
    expect(suite.refusals).toEqual([]);
  });

  it('number at least 12, at least two for each rule', () => {
    expect(suite.fixtures.length).toBeGreaterThanOrEqual(12);
    for (const rule of suite.rulebook?.rules ?? []) {
      expect(suite.fixtures.filter((fixture) => fixture.rule === rule.id).length, rule.id).toBeGreaterThanOrEqual(2);
    }
  });

  it('each stack at least three pressures and answer at least two rationalizations', () => {
    for (const fixture of suite.fixtures) {
      expect(new Set(fixture.pressures).size, fixture.id).toBeGreaterThanOrEqual(3);
      expect(fixture.rationalizations.length, fixture.id).toBeGreaterThanOrEqual(2);
    }
  });

  it('match the pinned debt list exactly', () => {
    const coverage = pressureCoverage(suite.rulebook, suite.fixtures);
    expect(suite.uncovered).toBeDefined();
    expect(checkFixtureDebt(coverage, suite.uncovered ?? [])).toEqual({ ok: true, unpinned: [], paid: [], unknown: [] });
  });
});

describe('the example replies', () => {
  it('are labelled as written by hand and get the verdict each was written for', async () => {
    const file = fileURLToPath(new URL('../../../../fixtures/pressure/example-replies.jsonl', import.meta.url));
    const lines = parsePressureResponses(await readFile(file, 'utf8'), file);
    const records = scoreResponseLines(suite.fixtures, suite.rulebook, lines, { now: () => new Date(0) });
    expect(lines.every((line) => line.origin === 'written')).toBe(true);
    expect(records.map((record) => record.result.verdict)).toEqual(lines.map((line) => line.expected_verdict));
    const seen = new Set(records.map((record) => record.result.verdict));
    expect(PRESSURE_VERDICTS_FOR_TEST.filter((verdict) => !seen.has(verdict))).toEqual([]);
  });
});
