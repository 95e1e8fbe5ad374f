import type { Verdict } from '@holdfast/core/browser';
import { VERDICT_LABEL, VERDICT_ORDER } from '../verdict-style.js';
import { SORTS } from '../view-state.js';
import type { RoundSort, ViewState } from '../view-state.js';

interface RoundFiltersProps {
  view: ViewState;
  targets: readonly string[];
  tasks: readonly string[];
  shown: number;
  total: number;
  onChange: (next: ViewState) => void;
}

const SORT_LABEL: Record<RoundSort, string> = { order: 'run order', target: 'target', task: 'task', told: 'told verdict', held: 'held verdict' };

function without<K extends keyof ViewState>(view: ViewState, key: K, value: ViewState[K] | undefined): ViewState {
  const next = { ...view };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** Filters, search and sort of the round list; each lives in the URL, so a filtered view is a link. */
export function RoundFilters({ view, targets, tasks, shown, total, onChange }: RoundFiltersProps) {
  const choose =
    <K extends 'verdict' | 'arm' | 'target' | 'task'>(key: K) =>
    (event: { target: { value: string } }) =>
      onChange(without(view, key, (event.target.value === '' ? undefined : event.target.value) as ViewState[K]));
  return (
    <form className="round-filters" data-testid="round-filters" role="search" aria-label="Filter rounds" onSubmit={(event) => event.preventDefault()}>
      <label>
        verdict
        <select value={view.verdict ?? ''} onChange={choose('verdict')} data-testid="filter-verdict">
          <option value="">any</option>
          {VERDICT_ORDER.map((verdict: Verdict) => (
            <option key={verdict} value={verdict}>
              {VERDICT_LABEL[verdict]}
            </option>
          ))}
        </select>
      </label>
      <label>
        in
        <select value={view.arm ?? ''} onChange={choose('arm')} data-testid="filter-arm">
          <option value="">either arm</option>
          <option value="told">told arm</option>
          <option value="held">held arm</option>
        </select>
      </label>
      <label>
        target
        <select value={view.target ?? ''} onChange={choose('target')} data-testid="filter-target">
          <option value="">any</option>
          {targets.map((target) => (
            <option key={target} value={target}>
              {target}
            </option>
          ))}
        </select>
      </label>
      <label>
        task
        <select value={view.task ?? ''} onChange={choose('task')} data-testid="filter-task">
          <option value="">any</option>
          {tasks.map((task) => (
            <option key={task} value={task}>
              {task}
            </option>
          ))}
        </select>
      </label>
      <label>
        search
        <input
          type="search"
          value={view.q ?? ''}
          placeholder="id, verdict, reason"
          onChange={(event) => onChange(without(view, 'q', event.target.value === '' ? undefined : event.target.value))}
          data-testid="filter-search"
        />
      </label>
      <label>
        sort by
        <select value={view.sort} onChange={(event) => onChange({ ...view, sort: event.target.value as RoundSort })} data-testid="filter-sort">
          {SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABEL[sort]}
            </option>
          ))}
        </select>
      </label>
      <output data-testid="filter-count" data-shown={shown} data-total={total} aria-live="polite">
        {shown === total ? `${total} rounds` : `${shown} of ${total} rounds`}
      </output>
    </form>
  );
}
