import type { Verdict } from '@holdfast/core/browser';
import { VERDICT_ORDER } from './verdict-style.js';

const TABS = ['totals', 'rounds', 'compare', 'rulebook', 'pressure'] as const;
export type Tab = (typeof TABS)[number];

export const SORTS = ['order', 'target', 'task', 'told', 'held'] as const;
export type RoundSort = (typeof SORTS)[number];

/** What the page shows of a run, kept in the hash after the run (`#/runs/x.jsonl?tab=rounds&round=…`), so a link opens the same view. */
export interface ViewState {
  readonly tab: Tab;
  readonly round?: string;
  /** Rounds where either arm (or `arm`, when set) has this verdict. */
  readonly verdict?: Verdict;
  readonly arm?: 'told' | 'held';
  readonly target?: string;
  readonly task?: string;
  /** Words every shown round contains (in its target, task, id, verdicts or reasons). */
  readonly q?: string;
  readonly sort: RoundSort;
  /** The saved run the compare tab sets against this one. */
  readonly vs?: string;
}

export const DEFAULT_VIEW: ViewState = { tab: 'totals', sort: 'order' };

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** The view part of a hash (after `?`); anything unknown or malformed falls back to the default. */
export function viewFromHash(hash: string): ViewState {
  const at = hash.indexOf('?');
  if (at < 0) return DEFAULT_VIEW;
  const params = new URLSearchParams(hash.slice(at + 1));
  const text = (key: string) => {
    const value = params.get(key);
    return value === null || value === '' ? undefined : value;
  };
  const round = text('round');
  const verdict = pick(params.get('verdict'), VERDICT_ORDER);
  const arm = pick(params.get('arm'), ['told', 'held'] as const);
  const target = text('target');
  const task = text('task');
  const q = text('q');
  const vs = text('vs');
  return {
    tab: pick(params.get('tab'), TABS) ?? DEFAULT_VIEW.tab,
    sort: pick(params.get('sort'), SORTS) ?? DEFAULT_VIEW.sort,
    ...(round !== undefined ? { round } : {}),
    ...(verdict !== undefined ? { verdict } : {}),
    ...(arm !== undefined ? { arm } : {}),
    ...(target !== undefined ? { target } : {}),
    ...(task !== undefined ? { task } : {}),
    ...(q !== undefined ? { q } : {}),
    ...(vs !== undefined ? { vs } : {}),
  };
}

/** `base` (the run's part of the hash) with the view appended; defaults are left out. */
export function hashWithView(base: string, view: ViewState): string {
  const params = new URLSearchParams();
  if (view.tab !== DEFAULT_VIEW.tab) params.set('tab', view.tab);
  if (view.round !== undefined) params.set('round', view.round);
  if (view.verdict !== undefined) params.set('verdict', view.verdict);
  if (view.arm !== undefined) params.set('arm', view.arm);
  if (view.target !== undefined) params.set('target', view.target);
  if (view.task !== undefined) params.set('task', view.task);
  if (view.q !== undefined && view.q !== '') params.set('q', view.q);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  if (view.vs !== undefined) params.set('vs', view.vs);
  const query = params.toString();
  return query === '' ? base : `${base}?${query}`;
}
