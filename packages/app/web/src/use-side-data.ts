import { useCallback, useRef, useState } from 'react';
import type { ApiPressureFile, ApiRunFile, ConfigResponse } from '@holdfast/core/browser';
import { fetchConfig, fetchPressureList, fetchRunList } from './api-client.js';

export interface SideData {
  readonly config: ConfigResponse | undefined;
  readonly configError: string | undefined;
  readonly runFiles: readonly ApiRunFile[];
  /** The run list has come (or could not be read): until then an empty `runFiles` says nothing about the folder. */
  readonly runListRead: boolean;
  /** Why the run list could not be read, when it could not: an empty `runFiles` then says nothing about the folder either. */
  readonly runListError: string | undefined;
  readonly pressureFiles: readonly ApiPressureFile[];
  readonly refreshRunFiles: () => void;
  /** Asks for the configuration, run list and pressure list once (the first call only). */
  readonly ask: () => void;
}

/**
 * What the page shows beside the run: the configuration (targets, tasks, rulebook), the saved run
 * files and the pressure results. Asked for once, when the caller says the time has come.
 */
export function useSideData(): SideData {
  const [config, setConfig] = useState<ConfigResponse | undefined>(undefined);
  const [configError, setConfigError] = useState<string | undefined>(undefined);
  const [runFiles, setRunFiles] = useState<readonly ApiRunFile[]>([]);
  const [runListRead, setRunListRead] = useState(false);
  const [runListError, setRunListError] = useState<string | undefined>(undefined);
  const [pressureFiles, setPressureFiles] = useState<readonly ApiPressureFile[]>([]);
  const asked = useRef(false);
  const refreshRunFiles = useCallback(() => {
    fetchRunList().then(
      (list) => {
        setRunFiles(list.runs);
        setRunListError(undefined);
        setRunListRead(true);
      },
      (error: unknown) => {
        setRunListError(error instanceof Error ? error.message : String(error));
        setRunListRead(true);
      },
    );
  }, []);
  const ask = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    fetchConfig().then(setConfig, (error: unknown) => setConfigError(error instanceof Error ? error.message : String(error)));
    refreshRunFiles();
    // Pressure results are a side view: without the list the tab simply stays hidden.
    fetchPressureList().then(
      (list) => setPressureFiles(list.files),
      () => undefined,
    );
  }, [refreshRunFiles]);
  return { config, configError, runFiles, runListRead, runListError, pressureFiles, refreshRunFiles, ask };
}
