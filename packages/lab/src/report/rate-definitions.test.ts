import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeTotals, parseRunFileText, reduceRunEvents } from '../store/index.js';
import { formatTotalsMarkdown, formatTotalsTable } from './format-totals.js';
import { RATE_DEFINITIONS } from './rate-definitions.js';

describe('rate definitions', () => {
  const totals = computeTotals(reduceRunEvents(parseRunFileText(readFileSync(join(process.cwd(), 'runs', 'example.jsonl'), 'utf8'), 'example.jsonl')));

  it('are printed word for word by the terminal table and the Markdown report', () => {
    for (const text of Object.values(RATE_DEFINITIONS)) {
      expect(formatTotalsTable(totals)).toContain(text);
      expect(formatTotalsMarkdown(totals)).toContain(text);
    }
  });
});
