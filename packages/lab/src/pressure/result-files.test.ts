import { describe, expect, it } from 'vitest';
import { formatPressureRecord, parsePressureRecords, safeParsePressureRecords, safeParsePressureResponses } from './result-files.js';
import { PressureFileError } from './refusal.js';
import { record } from './test-support/records.js';

describe('pressure result files', () => {
  it('round-trip records through JSONL', () => {
    const records = [record('PRS-A', 'pass', { target: 't', rep: 2 }), record('PRS-B', 'fail-hybrid')];
    const text = records.map(formatPressureRecord).join('');
    expect(parsePressureRecords(text, 'r.jsonl')).toEqual(records);
  });

  it('name the file and line of a bad line', () => {
    const text = `${formatPressureRecord(record('PRS-A', 'pass'))}\n{"type":"pressure-result"}\n`;
    const result = safeParsePressureRecords(text, 'r.jsonl');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(PressureFileError);
      expect(result.error.message).toMatch(/^r\.jsonl:3: /);
    }
  });

  it('refuse a responses line that is not JSON, and one with an unknown verdict label', () => {
    expect(safeParsePressureResponses('{nope', 'x.jsonl').ok).toBe(false);
    expect(safeParsePressureResponses('{"fixture_id":"PRS-A","response":"","expected_verdict":"maybe"}', 'x.jsonl').ok).toBe(false);
    expect(safeParsePressureResponses('{"fixture_id":"PRS-A","response":"CHOICE: A","rep":1}', 'x.jsonl')).toEqual({
      ok: true,
      lines: [{ fixture_id: 'PRS-A', response: 'CHOICE: A', rep: 1 }],
    });
  });
});
