import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeTotals, parseRunFileText, reduceRunEvents, safeParseRunFileText } from '@holdfast/lab/store';
import { leanRunFileLine } from './lean-run.js';
import { summarizeRunText } from './summary-run.js';

const EXAMPLE = readFileSync(join(process.cwd(), 'runs', 'example.jsonl'), 'utf8');
const lean = (text: string) =>
  text
    .split('\n')
    .map((line) => leanRunFileLine(line).text)
    .join('\n');

describe('the summary view of a run file', () => {
  const full = parseRunFileText(EXAMPLE, 'example.jsonl');
  const summary = safeParseRunFileText(summarizeRunText(lean(EXAMPLE)), 'summary');

  it('keeps every round with its verdicts and ends with the totals of the full file', () => {
    expect(summary.problems).toEqual([]);
    const fromFull = reduceRunEvents(full);
    const fromSummary = reduceRunEvents(summary.events);
    expect(fromSummary.rounds.toArray().map((round) => [round.roundId, round.told?.verdict, round.held?.verdict])).toEqual(
      fromFull.rounds.toArray().map((round) => [round.roundId, round.told?.verdict, round.held?.verdict]),
    );
    expect(fromSummary.totals).toEqual(computeTotals(fromFull));
    expect(fromSummary.end).toEqual(fromFull.end);
    expect(summary.events.filter((event) => event.type === 'totals')).toHaveLength(1);
    expect(summary.events.at(-1)?.type).toBe('totals');
  });

  it('cuts each arm result to verdict, reason, parse, error and mode', () => {
    for (const event of summary.events) {
      if (event.type !== 'arm-end') continue;
      expect(event.result.actions).toEqual([]);
      expect(event.result.checks).toEqual([]);
      expect(Object.keys(event.result).every((key) => ['arm', 'verdict', 'reason', 'actions', 'checks', 'parse', 'error', 'mode'].includes(key))).toBe(true);
    }
  });

  it('totals a run that ended without its run-end, and passes on bad lines and a torn last line as they were', () => {
    const lines = EXAMPLE.trimEnd().split('\n');
    const cut = lines.filter((line) => !line.includes('"type":"run-end"') && !line.includes('"type":"totals"'));
    const text = `${cut.join('\n')}\nnot json\n{"type":"arm-end","seq":999`;
    const read = safeParseRunFileText(summarizeRunText(lean(text)), 'summary');
    expect(read.problems.map((problem) => problem.kind)).toEqual(safeParseRunFileText(text, 'file').problems.map((problem) => problem.kind));
    const state = reduceRunEvents(read.events);
    expect(state.end).toBeUndefined();
    expect(state.totals).toEqual(computeTotals(reduceRunEvents(parseRunFileText(cut.join('\n'), 'cut'))));
  });

  it('shows a round started again (a resume retries it) as the reducer does: its new result only', () => {
    const events = parseRunFileText(EXAMPLE, 'example.jsonl').filter((event) => event.type !== 'run-end' && event.type !== 'totals');
    const first = events.find((event) => event.type === 'arm-end');
    if (first?.type !== 'arm-end') throw new Error('the example has no arm-end');
    const { roundId, target, task, rep, runId, time } = first;
    const last = events.at(-1)?.seq ?? 0;
    const retried = [
      ...events,
      { seq: last + 1, time, runId, type: 'round-start', roundId, target, task, rep },
      {
        seq: last + 2,
        time,
        runId,
        type: 'arm-end',
        roundId,
        target,
        task,
        rep,
        result: { ...first.result, arm: 'told', verdict: 'error', reason: 'retried', error: { code: 'E_X', message: 'x' } },
      },
    ] as const;
    const text = retried.map((event) => JSON.stringify(event)).join('\n') + '\n';
    const expected = reduceRunEvents(parseRunFileText(text, 'retried'));
    const fromSummary = reduceRunEvents(safeParseRunFileText(summarizeRunText(lean(text)), 'summary').events);
    const shown = (state: typeof expected) => state.rounds.toArray().map((round) => [round.roundId, round.told?.verdict, round.held?.verdict]);
    expect(shown(fromSummary)).toEqual(shown(expected));
    expect(fromSummary.rounds.toArray().find((round) => round.roundId === roundId)?.held).toBeUndefined();
    expect(fromSummary.totals).toEqual(computeTotals(expected));
  });
});
