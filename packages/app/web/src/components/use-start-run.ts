import { useState } from 'react';
import type { RunSelection } from '@holdfast/core/browser';

/** Starts a run from a selection: busy until the server answers, its refusal kept as the error to show. */
export function useStartRun(onStart: (selection: Partial<RunSelection>) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = (selection: Partial<RunSelection>) => {
    setBusy(true);
    setError(undefined);
    onStart(selection).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  return { busy, error, submit, clearError: () => setError(undefined) };
}
