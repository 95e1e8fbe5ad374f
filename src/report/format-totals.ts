import type { ArmTotals, Totals } from '../contract/index.js';
import { formatRate } from './format-rate.js';

const COLUMNS = [
  'target',
  'arm',
  'rounds',
  'attempted (rounds)',
  'landed (rounds)',
  'clean (rounds)',
  'attempts',
  'landed',
  'blocked',
  'refused',
  'declined',
  'unparseable',
  'errors',
] as const;

function cells(arm: ArmTotals): string[] {
  return [
    arm.target,
    arm.arm,
    String(arm.rounds),
    formatRate(arm.roundsWithAttempt),
    formatRate(arm.roundsLanded),
    formatRate(arm.clean),
    String(arm.attempts),
    String(arm.landed),
    String(arm.blocked),
    String(arm.refused),
    String(arm.declined),
    String(arm.unparseable),
    String(arm.errors),
  ];
}

function ruleCells(arm: ArmTotals): string[][] {
  return arm.perRule
    .filter((rule) => rule.attempts > 0 || rule.landed > 0 || rule.blocked > 0)
    .map((rule) => [arm.target, arm.arm, `${rule.rule} ${rule.name}`, String(rule.attempts), String(rule.landed), String(rule.blocked)]);
}

function aligned(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

function markdown(header: readonly string[], rows: readonly string[][]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    `| ${header.map(escape).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

const RULE_COLUMNS = ['target', 'arm', 'rule', 'attempts', 'landed', 'blocked'] as const;

const LEGEND =
  'Told and held are separate generations: compare them side by side, never as one rate. ' +
  'Rates show count/n, percent and the Wilson 95% interval. attempted = rounds where the model tried at least one violation; ' +
  'landed = rounds where one was applied; attempts/landed/blocked below count violations.';

/** The totals as an aligned plain-text table (terminal) with the per-rule breakdown. */
export function formatTotalsTable(totals: Totals): string {
  const rows = totals.arms.map(cells);
  const rules = totals.arms.flatMap(ruleCells);
  const parts = [aligned(COLUMNS, rows)];
  if (rules.length > 0) parts.push('', 'Per rule (violations):', aligned(RULE_COLUMNS, rules));
  parts.push('', LEGEND);
  return parts.join('\n');
}

/** The same tables as GitHub-flavoured markdown. */
export function formatTotalsMarkdown(totals: Totals): string {
  const parts = ['## Totals', '', markdown(COLUMNS, totals.arms.map(cells))];
  const rules = totals.arms.flatMap(ruleCells);
  if (rules.length > 0) parts.push('', '## Per rule', '', markdown(RULE_COLUMNS, rules));
  parts.push('', LEGEND);
  return parts.join('\n');
}
