import { useCallback, useEffect, useMemo, useState } from 'react';
import { hashOfSource, sourceFromHash } from './run-source.js';
import type { RunSource } from './run-source.js';
import { hashWithView, viewFromHash } from './view-state.js';
import type { ViewState } from './view-state.js';

/**
 * The run and the view of it, both in the URL hash (`#/runs/x.jsonl?tab=rounds&round=…`). Opening
 * a run is a new history entry; a view change (tab, round, filter) replaces the current one.
 */
export function useHashState(defaultRun: string | undefined): [RunSource | undefined, ViewState, (source: RunSource) => void, (view: ViewState) => void] {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const fromHash = sourceFromHash(hash);
  const source = fromHash ?? (defaultRun === undefined ? undefined : ({ kind: 'file', name: defaultRun } as const));
  const view = useMemo(() => viewFromHash(hash), [hash]);
  const open = useCallback((next: RunSource) => {
    window.location.hash = hashOfSource(next);
  }, []);
  const base = source === undefined ? '#' : hashOfSource(source);
  const setView = useCallback(
    (next: ViewState) => {
      const nextHash = hashWithView(base, next);
      window.history.replaceState(window.history.state, '', nextHash);
      setHash(nextHash);
    },
    [base],
  );
  return [source, view, open, setView];
}
