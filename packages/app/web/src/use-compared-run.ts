import { useEffect, useState } from 'react';
import type { Mode, Totals } from '@holdfast/core/browser';
import { reduceRunEvents } from '@holdfast/lab/browser';
import { fetchSavedRun } from './api-client.js';

export type ComparedRun =
  | { readonly state: 'none' }
  | { readonly state: 'loading' }
  | { readonly state: 'failed'; readonly error: string }
  | { readonly state: 'ready'; readonly totals: Totals; readonly mode: Mode };

/**
 * The totals of the run set against this one, read from its file's summary (the server counts
 * every round). `version` changes when a running run has more rounds, so its figures follow it.
 */
export function useComparedRun(name: string | undefined, version: string): ComparedRun {
  const [result, setResult] = useState<ComparedRun>({ state: 'none' });
  // Another run chosen: what was shown for the last one goes at once, in this render.
  const [shownFor, setShownFor] = useState(name);
  if (shownFor !== name) {
    setShownFor(name);
    setResult(name === undefined ? { state: 'none' } : { state: 'loading' });
  }
  useEffect(() => {
    if (name === undefined) return;
    let disposed = false;
    fetchSavedRun(name, 'summary').then(
      (saved) => {
        if (disposed) return;
        const state = reduceRunEvents(saved.events);
        setResult(
          state.totals === undefined
            ? { state: 'failed', error: `${name} has no totals to compare.` }
            : { state: 'ready', totals: state.totals, mode: state.start?.config.mode ?? 'plan' },
        );
      },
      (failure: unknown) => {
        if (!disposed) setResult({ state: 'failed', error: failure instanceof Error ? failure.message : String(failure) });
      },
    );
    return () => {
      disposed = true;
    };
  }, [name, version]);
  return name === undefined ? { state: 'none' } : result;
}
