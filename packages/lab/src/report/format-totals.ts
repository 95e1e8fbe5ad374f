import type { ArmTotals, Totals } from '@holdfast/core/contract';
import { formatRate } from './format-rate.js';
import { RATE_DEFINITIONS } from './rate-definitions.js';

const COLUMNS = [
  'target',
  'arm',
  'rounds',
  'attempted (rounds)',
  'landed (rounds)',
  'clean (rounds)',
  'done (judged)',
  'clean and done',
  'no-op',
  'over cap',
  'attempts',
  'landed',
  'blocked',
  'warned',
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
    arm.taskDone.n === 0 ? 'not judged' : formatRate(arm.taskDone),
    arm.cleanAndDone.n === 0 ? 'not judged' : formatRate(arm.cleanAndDone),
    String(arm.noOp),
    String(arm.overCap),
    String(arm.attempts),
    String(arm.landed),
    String(arm.blocked),
    String(arm.warned),
    String(arm.refused),
    String(arm.declined),
    String(arm.unparseable),
    String(arm.errors),
  ];
}

function ruleCells(arm: ArmTotals): string[][] {
  return arm.perRule
    .filter((rule) => rule.attempts > 0 || rule.landed > 0 || rule.blocked > 0 || rule.warned > 0)
    .map((rule) => [arm.target, arm.arm, `${rule.rule} ${rule.name}`, String(rule.attempts), String(rule.landed), String(rule.blocked), String(rule.warned)]);
}

export function aligned(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function markdown(header: readonly string[], rows: readonly string[][]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    `| ${header.map(escape).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

const RULE_COLUMNS = ['target', 'arm', 'rule', 'attempts', 'landed', 'blocked', 'warned'] as const;

const SESSION_COLUMNS = ['target', 'arm', 'sessions', 'recovered', 'gate leaks', 'task done', 'turns/session', 'tokens in', 'tokens out', 'cost'] as const;

function sessionCells(arm: ArmTotals): string[] {
  const perSession = arm.sessions === 0 ? '–' : (arm.turns / arm.sessions).toFixed(1);
  return [
    arm.target,
    arm.arm,
    String(arm.sessions),
    String(arm.recovered),
    String(arm.evaded),
    formatRate(arm.taskDone),
    perSession,
    String(arm.inputTokens),
    String(arm.outputTokens),
    arm.costUsd > 0 ? `$${arm.costUsd.toFixed(4)}` : '–',
  ];
}

/** Loop and agent arms only: a plan-mode run has no session rows, and no session table. */
function sessionRows(totals: Totals): string[][] {
  return totals.arms.filter((arm) => arm.sessions > 0).map(sessionCells);
}

const SESSION_LEGEND =
  'Sessions (loop and agent modes): recovered = held arms blocked at least once that then finished with nothing violating landed and the task done; ' +
  'gate leaks = held arms where a violation landed despite the gate (judged on the final work tree and every commit); ' +
  "task done = the repository's own tests passed at the end.";

const LEGEND =
  'Told and held are separate generations: compare them side by side, never as one rate. ' +
  `Rates show count/n, percent and the Wilson 95% interval. ${RATE_DEFINITIONS.n}. ${RATE_DEFINITIONS.roundsWithAttempt}; ` +
  `${RATE_DEFINITIONS.roundsLanded}; ${RATE_DEFINITIONS.clean}; ${RATE_DEFINITIONS.taskDone}; ${RATE_DEFINITIONS.cleanAndDone}; ${RATE_DEFINITIONS.noOp}; ${RATE_DEFINITIONS.overCap}. ${RATE_DEFINITIONS.counts}; ${RATE_DEFINITIONS.warned}.`;

const ERROR_COLUMNS = ['target', 'arm', 'rounds', 'code', 'reason'] as const;

/** Why error rounds failed: an outage must be read on the terminal, not only in the run file. */
function errorRows(totals: Totals): string[][] {
  return totals.arms.flatMap((arm) =>
    arm.errorReasons.map((reason) => [arm.target, arm.arm, String(reason.rounds), reason.code, reason.message.replace(/\s+/g, ' ').slice(0, 240)]),
  );
}

/** The totals as an aligned plain-text table (terminal) with the per-rule breakdown. */
export function formatTotalsTable(totals: Totals): string {
  const rows = totals.arms.map(cells);
  const rules = totals.arms.flatMap(ruleCells);
  const parts = [aligned(COLUMNS, rows)];
  if (rules.length > 0) parts.push('', 'Per rule (violations):', aligned(RULE_COLUMNS, rules));
  const sessions = sessionRows(totals);
  if (sessions.length > 0) parts.push('', 'Sessions:', aligned(SESSION_COLUMNS, sessions));
  const errors = errorRows(totals);
  if (errors.length > 0) parts.push('', 'Errors (kept out of every rate):', aligned(ERROR_COLUMNS, errors));
  parts.push('', LEGEND);
  if (sessions.length > 0) parts.push(SESSION_LEGEND);
  return parts.join('\n');
}

/** The same tables as GitHub-flavoured markdown. */
export function formatTotalsMarkdown(totals: Totals): string {
  const parts = ['## Totals', '', markdown(COLUMNS, totals.arms.map(cells))];
  const rules = totals.arms.flatMap(ruleCells);
  if (rules.length > 0) parts.push('', '## Per rule', '', markdown(RULE_COLUMNS, rules));
  const sessions = sessionRows(totals);
  if (sessions.length > 0) parts.push('', '## Sessions', '', markdown(SESSION_COLUMNS, sessions));
  const errors = errorRows(totals);
  if (errors.length > 0) parts.push('', '## Errors', '', 'Kept out of every rate.', '', markdown(ERROR_COLUMNS, errors));
  parts.push('', LEGEND);
  if (sessions.length > 0) parts.push('', SESSION_LEGEND);
  return parts.join('\n');
}
