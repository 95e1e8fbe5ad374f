import { describe, expect, it } from 'vitest';
import { actionsFromText, readAuditTimeline } from './audit-timeline.js';

const TESTS = /^\s*npm\s+test$/;

function line(fields: Record<string, unknown>): string {
  return JSON.stringify({ time: '2026-11-30T00:00:00.000Z', agent: 'claude-code', session: 's', rule: null, ...fields });
}

describe('actionsFromText', () => {
  it('reads the gate’s words back as actions (without file contents)', () => {
    expect(actionsFromText('write src/a.ts (12 chars); delete docs/x.md; run npm test; commit "fix: a; b"')).toEqual([
      { type: 'write', path: 'src/a.ts', content: '' },
      { type: 'delete', path: 'docs/x.md' },
      { type: 'run', cmd: 'npm test' },
      { type: 'commit', message: 'fix: a; b' },
    ]);
    expect(actionsFromText("run echo 'a; b'")).toEqual([{ type: 'run', cmd: "echo 'a; b'" }]);
  });
});

describe('readAuditTimeline', () => {
  it('turns observed, denied, allowed and pre-commit lines into the timeline and R6 steps', () => {
    const text = [
      line({
        tool: 'Edit',
        action: 'write src/tax.ts (40 chars)',
        decision: 'observed',
        verdict: 'deny',
        rule: 'R4',
        name: 'NOLOG',
        results: [
          { rule: 'R4', name: 'NOLOG', ok: false, detail: 'a console.log' },
          { rule: 'R2', name: 'SCOPE', ok: true, detail: 'ok' },
        ],
        detail: 'would deny',
      }),
      line({ tool: 'Edit', action: 'write src/tax.ts (41 chars)', decision: 'deny', rule: 'R4', name: 'NOLOG', detail: 'holdfast: R4 NOLOG' }),
      line({ tool: 'Bash', action: 'run npm test', decision: 'allow', detail: 'no rule refused it' }),
      line({
        agent: 'git',
        session: 'pre-commit',
        tool: 'pre-commit',
        event: 'pre-commit',
        action: 'write src/tax.ts (40 chars)',
        decision: 'allow',
        detail: 'staged',
      }),
      '{"torn',
      line({ tool: 'Bash', action: 'commit "fix"', decision: 'allow', detail: 'ok' }),
      line({ tool: 'Bash', action: 'write src/tax.ts (50 chars)', decision: 'reverted', rule: 'R4', name: 'NOLOG', detail: 'a console.log (restored)' }),
      line({
        tool: 'Bash',
        action: 'write src/tax.ts (50 chars)',
        decision: 'deny',
        rule: 'R4',
        name: 'NOLOG',
        detail: 'a console.log (observe mode: left in place)',
      }),
    ].join('\n');
    const timeline = readAuditTimeline(text, { testPattern: TESTS });
    expect(timeline.unreadableLines).toBe(1);
    expect(timeline.calls.map((call) => [call.index, call.turn, call.tool, call.decision, call.rule, call.isError])).toEqual([
      [0, 1, 'Edit', 'observed', 'R4', false],
      [1, 2, 'Edit', 'blocked', 'R4', true],
      [2, 3, 'Bash', 'applied', undefined, false],
      [3, 4, 'pre-commit', 'applied', undefined, false],
      [4, 5, 'Bash', 'applied', undefined, false],
      [5, 6, 'Bash', 'reverted', 'R4', false],
      [6, 7, 'Bash', 'observed', 'R4', false],
    ]);
    expect(timeline.calls[0]!.checks).toEqual([{ rule: 'R4', name: 'NOLOG', actionIndex: 0, ok: false, detail: 'a console.log' }]);
    expect(timeline.calls[1]!.checks).toEqual([{ rule: 'R4', name: 'NOLOG', actionIndex: 0, ok: false, detail: 'holdfast: R4 NOLOG' }]);
    // The blocked edit, the pre-commit checkpoint and the put-back changed nothing; the observed post-check left its change.
    expect(timeline.steps).toEqual([{ type: 'change' }, { type: 'test', cmd: 'npm test', passed: true }, { type: 'commit' }, { type: 'change' }]);
  });

  it('reads a warned line (rules at warn let through) as a warned call with one check per rule, and its change as made', () => {
    const text = [
      line({
        tool: 'Edit',
        action: 'write src/tax.ts (40 chars)',
        decision: 'warned',
        rule: 'R4',
        name: 'NOLOG',
        rules: ['R4', 'R5'],
        detail: 'holdfast warning',
      }),
      line({ tool: 'Bash', action: 'write docs/x.md (3 chars)', decision: 'deny', rule: 'R2', name: 'SCOPE', detail: 'holdfast: R2 SCOPE' }),
    ].join('\n');
    const timeline = readAuditTimeline(text, { testPattern: TESTS });
    expect(timeline.calls.map((call) => [call.tool, call.decision, call.rule, call.isError])).toEqual([
      ['Edit', 'warned', 'R4', false],
      ['Bash', 'blocked', 'R2', true],
    ]);
    expect(timeline.calls[0]!.checks.map((check) => [check.rule, check.name])).toEqual([
      ['R4', 'NOLOG'],
      ['R5', ''],
    ]);
    expect(timeline.steps).toEqual([{ type: 'change' }]);
  });
});
