import { describe, expect, it } from 'vitest';
import { InputError } from '@holdfast/core/contract';
import { parseRunFileText, safeParseRunFileText } from './run-file-text.js';
import { armEnd, cleanArm, key, roundStart, runStart } from './test-support/events.js';

const good = [runStart(), roundStart(1, key('r1')), armEnd(2, key('r1'), cleanArm('told'))];
const lines = good.map((event) => JSON.stringify(event));
const FILE = 'runs/x.jsonl';

describe('safeParseRunFileText', () => {
  it('reads every line of a good file', () => {
    expect(safeParseRunFileText(`${lines.join('\n')}\n`, FILE)).toEqual({ events: good, problems: [] });
  });

  it('keeps the good lines around a corrupt middle line and names it', () => {
    const text = [lines[0], '{"type": "round-start", "seq": 1,', lines[2], ''].join('\n');
    const { events, problems } = safeParseRunFileText(text, FILE);
    expect(events.map((event) => event.seq)).toEqual([0, 2]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2, kind: 'json' });
    expect(problems[0]?.message).toMatch(/^runs\/x\.jsonl line 2: not JSON \(/);
  });

  it('says which field is wrong and what it should be', () => {
    const broken = JSON.parse(lines[2]!) as { result: { verdict: string } };
    broken.result.verdict = 'fine';
    const text = [...lines.slice(0, 2), '', JSON.stringify(broken), ''].join('\n');
    const { events, problems } = safeParseRunFileText(text, FILE);
    expect(events).toHaveLength(2);
    expect(problems).toEqual([
      {
        line: 4,
        kind: 'schema',
        message:
          'runs/x.jsonl line 4: field result.verdict: expected one of clean, violated, blocked, refused, declined, unparseable, error, recovered, evaded, no-op, over-cap, warned',
      },
    ]);
  });

  it('names an unknown event type, a missing field and an array position', () => {
    const unknown = JSON.stringify({ ...good[1], type: 'round-begin' });
    const { runId: _runId, ...withoutRunId } = good[1] as Record<string, unknown>;
    const badAction = JSON.parse(lines[2]!) as { result: { actions: { status: string }[] } };
    badAction.result.actions[0]!.status = 'done';
    const text = [unknown, JSON.stringify(withoutRunId), JSON.stringify(badAction), '[1]', ''].join('\n');
    const messages = safeParseRunFileText(text, FILE).problems.map((problem) => problem.message);
    expect(messages).toEqual([
      'runs/x.jsonl line 1: field type: expected one of run-start, round-start, arm-end, approval-request, approval-end, judge, totals, run-end',
      'runs/x.jsonl line 2: field runId: missing (expected string)',
      'runs/x.jsonl line 3: field result.actions[0].status: expected one of applied, blocked, skipped, refused, warned',
      'runs/x.jsonl line 4: the line: expected object, received array',
    ]);
  });

  it('skips a torn last line and reports it as torn', () => {
    const text = `${lines.join('\n')}\n${lines[1]!.slice(0, 25)}`;
    const { events, problems } = safeParseRunFileText(text, FILE);
    expect(events).toEqual(good);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 4, kind: 'torn' });
    expect(problems[0]?.message).toContain('cut off mid-write');
  });

  it('accepts a complete last line without its newline, and Windows line ends', () => {
    expect(safeParseRunFileText(lines.join('\n'), FILE).events).toEqual(good);
    expect(safeParseRunFileText(`${lines.join('\r\n')}\r\n`, FILE)).toEqual({ events: good, problems: [] });
  });
});

describe('safeParseRunFileText on hostile files', () => {
  it('accepts and strips a UTF-8 byte order mark', () => {
    expect(safeParseRunFileText(`\uFEFF${lines.join('\n')}\n`, FILE)).toEqual({ events: good, problems: [] });
  });

  it('reports a repeated seq (a second writer) and skips the repeat', () => {
    const { events, problems } = safeParseRunFileText(`${[...lines, lines[2]].join('\n')}\n`, FILE);
    expect(events).toEqual(good);
    expect(problems).toEqual([
      { line: 4, kind: 'seq', message: 'runs/x.jsonl line 4: seq 2 already appeared on line 3: a second writer or a copied line; skipped' },
    ]);
  });

  it('reports a line appended out of order, and keeps it', () => {
    const late = armEnd(1, key('r1'), cleanArm('held'));
    const text = `${[lines[0], lines[2], JSON.stringify(late)].join('\n')}\n`;
    const { events, problems } = safeParseRunFileText(text, FILE);
    expect(events.map((event) => event.seq)).toEqual([0, 2, 1]);
    expect(problems).toEqual([
      { line: 3, kind: 'seq', message: 'runs/x.jsonl line 3: seq 1 comes after seq 2: the line was appended out of order; read in file order' },
    ]);
  });

  it('names a seq no run can reach instead of failing later', () => {
    const huge = { ...roundStart(1, key('r1')), seq: 2 ** 53 };
    const { events, problems } = safeParseRunFileText(`${[lines[0], JSON.stringify(huge)].join('\n')}\n`, FILE);
    expect(events).toEqual([good[0]]);
    expect(problems).toEqual([
      {
        line: 2,
        kind: 'seq',
        message: `runs/x.jsonl line 2: seq ${2 ** 53} is not a run's event number (a whole number from 0 to ${2 ** 40}); the line is corrupt and was skipped`,
      },
    ]);
  });
});

describe('parseRunFileText', () => {
  it('returns the events of a good file', () => {
    expect(parseRunFileText(`${lines.join('\n')}\n`, FILE)).toEqual(good);
  });

  it('throws an InputError naming the first bad line and counting the rest', () => {
    const text = [lines[0], 'oops', lines[1], 'also bad', ''].join('\n');
    let caught: unknown;
    try {
      parseRunFileText(text, FILE);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect(caught).toMatchObject({ code: 'E_RUN_FILE' });
    expect((caught as Error).message).toMatch(/^runs\/x\.jsonl line 2: not JSON .*\(1 more bad lines\)$/);
  });
});
