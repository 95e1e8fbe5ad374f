import type { Rate, Totals } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import type { ExportFigure, ExportTable } from './export-view.js';
import { formatRate } from './format.js';

/** A rate as numbers (count, n, the rate and its Wilson 95% interval as fractions), with the page's text beside them. */
export function rateFigure(rate: Rate): ExportFigure {
  return { text: formatRate(rate), values: { count: rate.count, n: rate.n, rate: rate.rate, low: rate.low, high: rate.high } };
}

/** The round list as shown (filtered and sorted), for export. */
export function roundsTable(rounds: readonly RoundState[], run: string): ExportTable {
  return {
    name: `${run}-rounds`,
    columns: ['round', 'target', 'task', 'rep', 'told', 'told reason', 'held', 'held reason'],
    rows: rounds.map((round) => [
      round.roundId,
      round.target,
      round.task,
      round.rep + 1,
      round.told?.verdict ?? null,
      round.told?.reason ?? null,
      round.held?.verdict ?? null,
      round.held?.reason ?? null,
    ]),
  };
}

/** The totals per target and arm; each rate a figure (its numbers, and the text the page prints). */
export function totalsTable(totals: Totals, run: string): ExportTable {
  return {
    name: `${run}-totals`,
    columns: [
      'target',
      'arm',
      'rounds',
      'rounds with an attempt',
      'rounds where a violation landed',
      'clean rounds',
      'attempts',
      'landed',
      'blocked',
      'warned',
      'declined',
      'refused',
      'unparseable',
      'errors',
    ],
    rows: totals.arms.map((row) => [
      row.target,
      row.arm,
      row.rounds,
      rateFigure(row.roundsWithAttempt),
      rateFigure(row.roundsLanded),
      rateFigure(row.clean),
      row.attempts,
      row.landed,
      row.blocked,
      row.warned,
      row.declined,
      row.refused,
      row.unparseable,
      row.errors,
    ]),
  };
}
