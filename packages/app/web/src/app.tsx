import { useCallback, useEffect, useMemo, useState } from 'react';
import type { RunSelection } from '@holdfast/core/browser';
import { computeTotals } from '@holdfast/lab/browser';
import { startRun } from './api-client.js';
import { RunBanners } from './components/run-banners.js';
import { RunHeader } from './components/run-header.js';
import { RunPage } from './components/run-page.js';
import { SelectionPanel } from './components/selection-panel.js';
import { sourceFromHash } from './run-source.js';
import type { RunSource } from './run-source.js';
import { useHashState } from './use-hash-state.js';
import { useLiveRuns } from './use-live-runs.js';
import { useRun } from './use-run.js';
import { useSideData } from './use-side-data.js';

/**
 * The page: the open run first (headline, chart, details), then the form for a new run — beside it
 * on a wide screen, below it on a phone, so the results are what a narrow screen shows first.
 */
export function App() {
  const side = useSideData();
  const { config, runFiles, runListRead, runListError, refreshRunFiles } = side;
  const [linkedSource, viewState, openSource, setViewState] = useHashState(config?.defaultRun);
  const liveRuns = useLiveRuns();
  // A saved file that a run of this server is still writing is shown live, so its commits can be answered.
  const writer = linkedSource?.kind === 'file' ? liveRuns.find((run) => run.running && run.name === linkedSource.name) : undefined;
  const source: RunSource | undefined = writer !== undefined ? { kind: 'live', runId: writer.runId } : linkedSource;
  const view = useRun(source, refreshRunFiles);
  // A run started or ended (here or in another tab): the picker's list of files changed with it.
  const liveKey = liveRuns.map((run) => `${run.runId}:${run.running}`).join(' ');
  useEffect(() => {
    if (liveKey !== '') refreshRunFiles();
  }, [liveKey, refreshRunFiles]);

  // A link to a run draws that run first: the configuration and the run list (which probes targets
  // and reads file headers) are asked for once it is on screen. Without a link the configuration
  // comes first, since it names the run to open.
  const [linkedOnOpen] = useState(() => sourceFromHash(window.location.hash) !== undefined);
  const runOnScreen = view.connection !== 'loading';
  const { ask } = side;
  useEffect(() => {
    if (!linkedOnOpen || runOnScreen) ask();
  }, [linkedOnOpen, runOnScreen, ask]);

  const { state } = view;
  const serverTotals = view.summary === true ? state.totals : undefined;
  const totals = useMemo(() => serverTotals ?? computeTotals(state), [serverTotals, state]);
  const onStart = useCallback(
    async (selection: Partial<RunSelection>) => {
      const started = await startRun(selection);
      openSource({ kind: 'live', runId: started.runId });
    },
    [openSource],
  );
  const runningNames = new Set(liveRuns.filter((run) => run.running).map((run) => run.name));
  const savedFiles = runFiles.filter((file) => !runningNames.has(file.name));

  return (
    <div className="app">
      <RunHeader
        source={source}
        state={state}
        connection={view.connection}
        liveRuns={liveRuns}
        savedFiles={savedFiles}
        token={view.token}
        noRun={source === undefined && config !== undefined}
        onOpen={openSource}
      />
      <RunBanners state={state} loadError={view.error} configError={side.configError} problems={view.problems} />
      <div className="layout">
        <RunPage
          source={source}
          view={view}
          totals={totals}
          viewState={viewState}
          setViewState={setViewState}
          config={config}
          liveRuns={liveRuns}
          savedFiles={savedFiles}
          pressureFiles={side.pressureFiles}
          runFiles={runListRead ? runFiles : undefined}
          runListError={runListError}
        />
        <aside>
          {config !== undefined ? (
            <SelectionPanel config={config} runFiles={runListRead ? runFiles : undefined} runListError={runListError} onStart={onStart} />
          ) : (
            <p className="muted">Loading configuration…</p>
          )}
        </aside>
      </div>
    </div>
  );
}
