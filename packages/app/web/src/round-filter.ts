import type { RoundState } from '@holdfast/lab/browser';
import { VERDICT_ORDER } from './verdict-style.js';
import type { ViewState } from './view-state.js';

const NO_VERDICT = VERDICT_ORDER.length;

function verdictRank(round: RoundState, arm: 'told' | 'held'): number {
  const verdict = round[arm]?.verdict;
  return verdict === undefined ? NO_VERDICT : VERDICT_ORDER.indexOf(verdict);
}

function searchText(round: RoundState): string {
  return [round.roundId, round.told?.verdict, round.told?.reason, round.held?.verdict, round.held?.reason].join('\n').toLowerCase();
}

/** Whether any filter narrows the list. */
export function isFiltered(view: ViewState): boolean {
  return view.verdict !== undefined || view.target !== undefined || view.task !== undefined || (view.q ?? '') !== '';
}

/**
 * The rounds the view shows, in its order: a verdict (of either arm, or of `arm`), a target, a
 * task and search words (all must appear) narrow the list; the sort is stable, so equal rounds
 * keep the run's order.
 */
export function filterRounds(rounds: readonly RoundState[], view: ViewState): readonly RoundState[] {
  const words = (view.q ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const arms = view.arm === undefined ? (['told', 'held'] as const) : [view.arm];
  const shown = isFiltered(view)
    ? rounds.filter((round) => {
        if (view.target !== undefined && round.target !== view.target) return false;
        if (view.task !== undefined && round.task !== view.task) return false;
        if (view.verdict !== undefined && !arms.some((arm) => round[arm]?.verdict === view.verdict)) return false;
        if (words.length > 0) {
          const text = searchText(round);
          if (!words.every((word) => text.includes(word))) return false;
        }
        return true;
      })
    : rounds;
  switch (view.sort) {
    case 'order':
      return shown;
    case 'target':
      return [...shown].sort((left, right) => left.target.localeCompare(right.target));
    case 'task':
      return [...shown].sort((left, right) => left.task.localeCompare(right.task));
    case 'told':
    case 'held': {
      const arm = view.sort;
      return [...shown].sort((left, right) => verdictRank(left, arm) - verdictRank(right, arm));
    }
  }
}
