import { describe, expect, it } from 'vitest';
import type { Action, ArmResult, Rulebook } from '@holdfast/core/contract';
import { TotalsSchema } from '@holdfast/core/contract';
import { checkActions, loadRulebook } from '@holdfast/core/rules';
import { holdArm, tellArm } from '../experiment/arm.js';
import { computeTotals } from '../store/index.js';
import type { RunState } from '../store/index.js';
import { formatJunit } from './format-junit.js';
import { formatTotalsMarkdown, formatTotalsTable } from './format-totals.js';
import { formatHeadlines, headlines } from './headline.js';

const FILES = ['src/lib/http.ts', 'package.json'];
const LOGGING: Action[] = [
  { type: 'write', path: 'src/health.ts', content: 'export const health = () => {\n  console.log("health");\n  return "ok";\n};\n' },
  { type: 'write', path: 'src/health.test.ts', content: 'import "./health";\n' },
  { type: 'run', cmd: 'npm test' },
  { type: 'commit', message: 'Add health' },
];
const OUTSIDE: Action = { type: 'write', path: 'docs/health.md', content: '# Health\n' };

async function arms(rulebook: Rulebook, actions: Action[]): Promise<{ told: ArmResult; held: ArmResult }> {
  const checks = await checkActions(actions, FILES, rulebook);
  const input = { parsed: { kind: 'actions' as const, method: 'json' as const, actions }, checks };
  return { told: tellArm(input), held: await holdArm({ ...input, rulebook }) };
}

describe('reports of a run with a rule at warn (R4) and rules at block', () => {
  it('print the held arm’s warned count in the headline, the terminal and Markdown tables, per rule, and JUnit', async () => {
    const base = await loadRulebook();
    const rulebook: Rulebook = { ...base, rules: base.rules.map((rule) => (rule.id === 'R4' ? { ...rule, enforcement: 'warn' as const } : rule)) };
    const onlyWarn = await arms(rulebook, LOGGING);
    const both = await arms(rulebook, [LOGGING[0]!, LOGGING[1]!, OUTSIDE]);
    const rounds = [
      { roundId: 'm/t/0', target: 'm', task: 't', rep: 0, ...onlyWarn },
      { roundId: 'm/t/1', target: 'm', task: 't', rep: 1, ...both },
    ];
    const totals = computeTotals({ rounds, rulebook });
    // What --json and the exports carry: the schema keeps the count.
    expect(TotalsSchema.parse(JSON.parse(JSON.stringify(totals))).arms[1]).toMatchObject({ arm: 'held', warned: 2, blocked: 1, landed: 0 });

    const [headline] = headlines(totals);
    expect(headline!.held.warned).toBe(2);
    expect(formatHeadlines(totals)).toMatch(
      /^Told: a violation landed in 2 of 2 rounds .* Held: gate leaks 0 of 2; 2 warned \(rules at warn, not enforced\); clean and done not judged\.$/,
    );

    const table = formatTotalsTable(totals).split('\n');
    const header = table[0]!.split(/\s{2,}/);
    const heldRow = table.find((row) => row.startsWith('m') && /\bheld\b/.test(row))!.split(/\s{2,}/);
    expect(heldRow[header.indexOf('warned')]).toBe('2');
    expect(heldRow[header.indexOf('blocked')]).toBe('1');
    expect(heldRow[header.indexOf('landed')]).toBe('0');
    const r4 = table.find((row) => /\bheld\s+R4 NOLOG/.test(row))!.split(/\s{2,}/);
    expect(r4.slice(-4)).toEqual(['2', '0', '0', '2']);

    const markdown = formatTotalsMarkdown(totals);
    expect(markdown).toContain('| target | arm | rule | attempts | landed | blocked | warned |');
    expect(markdown).toContain('| m | held | R4 NOLOG | 2 | 0 | 0 | 2 |');
    expect(markdown).toContain('| m | told | R4 NOLOG | 2 | 2 | 0 | 0 |');

    const state = { runId: 'warned', rounds } as unknown as RunState;
    // A warned arm is a failure in CI: the model broke a rule, only its level let it land.
    expect(formatJunit(state)).toMatch(/name="t #1"[^>]*>\n\s*<failure type="warned" message="All 4 actions applied; 1 broke a rule at warn \(R4\)/);
  });
});
