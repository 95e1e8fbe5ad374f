import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ApiPressureFile, ApiRunFile, ConfigResponse, RunSelection } from '@holdfast/core/browser';
import { computeTotals, findRound } from '@holdfast/lab/browser';
import { answerApproval, cancelRun, fetchConfig, fetchPressureList, fetchRunList, startRun } from './api-client.js';
import { ApprovalsPanel } from './components/approvals-panel.js';
import { WorkersPanel } from './components/workers-panel.js';
import { PressureView } from './components/pressure-view.js';
import { RoundList } from './components/round-list.js';
import { RoundView } from './components/round-view.js';
import { RulebookPanel } from './components/rulebook-panel.js';
import { SelectionPanel } from './components/selection-panel.js';
import { TotalsView } from './components/totals-view.js';
import { HeadlineView } from './components/headline-view.js';
import { VerdictStrip } from './components/verdict-strip.js';
import { WaitingApprovals } from './components/waiting-approvals.js';
import { hashOfSource, sourceFromHash } from './run-source.js';
import type { RunSource } from './run-source.js';
import { filterRounds } from './round-filter.js';
import { useLiveRuns } from './use-live-runs.js';
import { useRun } from './use-run.js';
import { hashWithView, viewFromHash } from './view-state.js';
import type { Tab, ViewState } from './view-state.js';
import { CompareView } from './components/compare-view.js';
import { PromptView } from './components/prompt-view.js';
import { RateDefinitions } from './components/rate-definitions.js';
import { ToldHeldChart } from './components/told-held-chart.js';
import { ExportButtons } from './components/export-buttons.js';
import { RoundFilters } from './components/round-filters.js';
import { EmptyRuns } from './components/empty-runs.js';
import { roundsTable, totalsTable } from './view-tables.js';

/**
 * The run and the view of it, both in the URL hash (`#/runs/x.jsonl?tab=rounds&round=…`). Opening
 * a run is a new history entry; a view change (tab, round, filter) replaces the current one.
 */
function useHashState(defaultRun: string | undefined): [RunSource | undefined, ViewState, (source: RunSource) => void, (view: ViewState) => void] {
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

/** Whether a key press belongs to a form field (so j/k there type letters). */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName));
}

export function App() {
  const [config, setConfig] = useState<ConfigResponse | undefined>(undefined);
  const [configError, setConfigError] = useState<string | undefined>(undefined);
  const [runFiles, setRunFiles] = useState<readonly ApiRunFile[]>([]);
  const [pressureFiles, setPressureFiles] = useState<readonly ApiPressureFile[]>([]);

  const refreshRunFiles = useCallback(() => {
    fetchRunList().then(
      (list) => setRunFiles(list.runs),
      () => undefined,
    );
  }, []);
  const [linkedSource, viewState, openSource, setViewState] = useHashState(config?.defaultRun);
  const tab = viewState.tab;
  const selectedRoundId = viewState.round;
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
  const sideDataAsked = useRef(false);
  const runOnScreen = view.connection !== 'loading';
  useEffect(() => {
    if (sideDataAsked.current || (linkedOnOpen && !runOnScreen)) return;
    sideDataAsked.current = true;
    fetchConfig().then(setConfig, (error: unknown) => setConfigError(error instanceof Error ? error.message : String(error)));
    refreshRunFiles();
    // Pressure results are a side view: without the list the tab simply stays hidden.
    fetchPressureList().then(
      (list) => setPressureFiles(list.files),
      () => undefined,
    );
  }, [linkedOnOpen, runOnScreen, refreshRunFiles]);
  const { state } = view;

  const rounds = state.rounds.toArray();
  const serverTotals = view.summary === true ? state.totals : undefined;
  const totals = useMemo(() => serverTotals ?? computeTotals(state), [serverTotals, state]);
  const targets = useMemo(() => state.start?.config.targets ?? [], [state.start]);
  const tasks = state.start?.tasks ?? [];
  const rulebook = state.start?.rulebook ?? config?.rulebook;
  const temptedBy = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const task of state.start?.tasks ?? config?.tasks ?? []) for (const rule of task.tempts) map.set(rule, [...(map.get(rule) ?? []), task.id]);
    return map;
  }, [state.start, config]);

  const selectedPosition = selectedRoundId === undefined ? -1 : findRound(state, selectedRoundId);
  const selectedRound = selectedPosition >= 0 ? state.rounds.at(selectedPosition) : undefined;
  const finishedArms = rounds.reduce((sum, round) => sum + (round.told === undefined ? 0 : 1) + (round.held === undefined ? 0 : 1), 0);
  const planned = state.start === undefined ? undefined : state.start.config.targets.length * state.start.config.tasks.length * state.start.config.reps;

  const liveRunId = source?.kind === 'live' ? source.runId : undefined;
  const token = view.token;
  const answer = useMemo(
    () =>
      liveRunId === undefined || token === undefined
        ? undefined
        : (approvalId: string, approve: boolean) => answerApproval(liveRunId, approvalId, approve, token),
    [liveRunId, token],
  );
  const onStart = useCallback(
    async (selection: Partial<RunSelection>) => {
      const started = await startRun(selection);
      openSource({ kind: 'live', runId: started.runId });
    },
    [openSource],
  );
  const selectRound = useCallback((roundId: string) => setViewState({ ...viewState, tab: 'rounds', round: roundId }), [viewState, setViewState]);
  const setTab = (next: Tab) => setViewState({ ...viewState, tab: next });
  const shownRounds = useMemo(() => filterRounds(rounds, viewState), [rounds, viewState]);
  const roundTargets = useMemo(() => [...new Set(rounds.map((round) => round.target))], [rounds]);
  const roundTasks = useMemo(() => [...new Set(rounds.map((round) => round.task))], [rounds]);

  // j and k step through the shown rounds from anywhere on the page (not while typing in a field).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.key !== 'j' && event.key !== 'k') || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const index = selectedRoundId === undefined ? -1 : shownRounds.findIndex((round) => round.roundId === selectedRoundId);
      const next = shownRounds[event.key === 'j' ? Math.min(shownRounds.length - 1, index + 1) : Math.max(0, index - 1)];
      if (next === undefined) return;
      event.preventDefault();
      selectRound(next.roundId);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shownRounds, selectedRoundId, selectRound]);

  const tabs: readonly Tab[] = pressureFiles.length > 0 ? ['totals', 'rounds', 'compare', 'rulebook', 'pressure'] : ['totals', 'rounds', 'compare', 'rulebook'];
  // Tabs per the ARIA practices: one tab stop, Left/Right/Home/End move and select.
  const onTabKey = (event: React.KeyboardEvent<HTMLElement>) => {
    const at = tabs.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    const name = tabs[next];
    if (name === undefined) return;
    event.preventDefault();
    setTab(name);
    document.getElementById(`tab-${name}`)?.focus();
  };

  const running = source?.kind === 'live' && state.end === undefined;
  // Nothing to open (an empty runs folder, no default run): say what to do, not "loading" forever.
  const noRun = source === undefined && config !== undefined;
  const pickerValue = source === undefined ? '' : hashOfSource(source);
  const runName = source === undefined ? 'run' : source.kind === 'file' ? source.name.replace(/\.jsonl$/, '') : source.runId;
  const runningNames = new Set(liveRuns.filter((run) => run.running).map((run) => run.name));
  const savedFiles = runFiles.filter((file) => !runningNames.has(file.name));

  return (
    <div className="app">
      <header className="top">
        <h1>holdfast</h1>
        <label className="picker">
          run
          <select
            value={pickerValue}
            data-testid="run-picker"
            onChange={(event) => {
              const next = sourceFromHash(event.target.value);
              if (next !== undefined) openSource(next);
            }}
          >
            {source !== undefined &&
            !liveRuns.some((run) => hashOfSource({ kind: 'live', runId: run.runId }) === pickerValue) &&
            !savedFiles.some((file) => hashOfSource({ kind: 'file', name: file.name }) === pickerValue) ? (
              <option value={pickerValue}>{source.kind === 'live' ? `live: ${source.runId}` : source.name}</option>
            ) : null}
            {liveRuns.length > 0 ? (
              <optgroup label="runs of this server">
                {liveRuns.map((run) => (
                  <option key={run.runId} value={hashOfSource({ kind: 'live', runId: run.runId })} data-testid="picker-live-run">
                    {run.runId} · {run.rounds} rounds · {run.running ? 'running' : 'ended'}
                    {run.pending.length > 0 ? ` · ${run.pending.length} waiting` : ''}
                  </option>
                ))}
              </optgroup>
            ) : null}
            <optgroup label="saved runs">
              {savedFiles.map((file) => (
                <option key={file.name} value={hashOfSource({ kind: 'file', name: file.name })}>
                  {file.name}
                  {file.rounds !== undefined ? ` · ${file.rounds} rounds` : ''}
                  {file.status !== undefined ? ` · ${file.status === 'incomplete' ? 'interrupted (no end recorded)' : file.status}` : ''}
                  {file.demo !== undefined ? ' · demo' : ''}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <span
          className="run-status"
          data-testid="run-status"
          data-status={noRun ? 'none' : (state.end?.status ?? (view.connection === 'loading' ? 'loading' : source?.kind === 'live' ? 'running' : 'no-end'))}
        >
          {state.runId ?? ''}
          {noRun ? '' : ' · '}
          {noRun
            ? 'no run open'
            : state.end !== undefined
              ? state.end.status
              : view.connection === 'loading'
                ? 'loading'
                : source?.kind === 'live'
                  ? `running (${view.connection})`
                  : 'interrupted: the file has no run end'}
          {noRun ? null : (
            <>
              {' · '}
              {rounds.length}
              {planned !== undefined ? `/${planned}` : ''} rounds · {finishedArms} arms finished
            </>
          )}
          {state.start !== undefined ? <span data-testid="run-mode"> · {state.start.config.mode ?? 'plan'} mode</span> : null}
        </span>
        <WaitingApprovals runs={liveRuns} />
        {running && token !== undefined && liveRunId !== undefined ? (
          <button type="button" className="refuse" onClick={() => void cancelRun(liveRunId, token).catch(() => undefined)}>
            Cancel run
          </button>
        ) : null}
      </header>

      {state.start?.demo !== undefined ? (
        <div className="demo-banner" role="note" data-testid="demo-banner">
          <b>Demo run:</b> {state.start.demo}
        </div>
      ) : null}
      {view.error !== undefined ? <div className="error-banner">Could not load the run: {view.error}</div> : null}
      {configError !== undefined ? <div className="error-banner">Could not load the configuration: {configError}</div> : null}
      {view.problems.length > 0 ? (
        <div className="warning-banner">
          {view.problems.length} line{view.problems.length === 1 ? '' : 's'} of this run could not be read: {view.problems[0]}
        </div>
      ) : null}
      {state.end?.reason !== undefined ? (
        <div className="warning-banner">
          Run {state.end.status}: {state.end.reason}
        </div>
      ) : null}

      <div className="layout">
        <aside>
          {config !== undefined ? <SelectionPanel config={config} runFiles={runFiles} onStart={onStart} /> : <p className="muted">Loading configuration…</p>}
        </aside>
        <main className={noRun ? 'no-run' : undefined}>
          {noRun ? <EmptyRuns runFiles={runFiles} /> : null}
          <HeadlineView totals={totals} />
          {state.pendingApprovals.length > 0 || state.start?.config.approve === 'http' || state.start?.config.approve === 'ask' ? (
            <ApprovalsPanel
              pending={state.pendingApprovals}
              finished={state.finishedApprovals.toArray()}
              answer={answer}
              readOnly={source?.kind === 'file' ? 'a saved run file: its commits were answered when it ran.' : 'connecting to the run…'}
              onOpenRound={selectRound}
            />
          ) : null}
          <WorkersPanel workers={liveRuns.find((run) => run.runId === liveRunId)?.workers} onOpenRound={selectRound} />
          <VerdictStrip
            rounds={rounds}
            targets={targets}
            selectedRoundId={selectedRoundId}
            onSelect={selectRound}
            onFilter={(target, arm, verdict) => setViewState({ tab: 'rounds', sort: 'order', target, arm, verdict })}
          />
          <div className="tabs" role="tablist" aria-label="Views of the run" onKeyDown={onTabKey}>
            {tabs.map((name) => (
              <button
                key={name}
                id={`tab-${name}`}
                type="button"
                role="tab"
                aria-selected={tab === name}
                aria-controls="tab-panel"
                tabIndex={tab === name ? 0 : -1}
                className={tab === name ? 'on' : ''}
                data-testid={`tab-${name}`}
                onClick={() => setTab(name)}
              >
                {name === 'totals'
                  ? 'Totals'
                  : name === 'rounds'
                    ? `Rounds (${rounds.length})`
                    : name === 'compare'
                      ? 'Compare'
                      : name === 'rulebook'
                        ? 'Rulebook'
                        : `Pressure (${pressureFiles.length})`}
              </button>
            ))}
          </div>
          <div id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
            {tab === 'totals' ? (
              <>
                <ExportButtons what="totals" table={() => totalsTable(totals, runName)} />
                <ToldHeldChart totals={totals} />
                <TotalsView totals={totals} />
                <RateDefinitions />
              </>
            ) : null}
            {tab === 'rounds' ? (
              <>
                <RoundFilters
                  view={viewState}
                  targets={roundTargets}
                  tasks={roundTasks}
                  shown={shownRounds.length}
                  total={rounds.length}
                  onChange={setViewState}
                />
                <ExportButtons what="these rounds" table={() => roundsTable(shownRounds, runName)} />
              </>
            ) : null}
            {tab === 'compare' ? (
              <CompareView
                name={runName}
                totals={totals}
                runFiles={savedFiles}
                other={viewState.vs}
                onOther={(other) => {
                  const { vs: _previous, ...rest } = viewState;
                  setViewState(other === undefined ? rest : { ...rest, vs: other });
                }}
              />
            ) : null}
            {tab === 'rounds' ? (
              <div className="rounds-split">
                <RoundList rounds={shownRounds} selectedRoundId={selectedRoundId} onSelect={selectRound} />
                {selectedRound !== undefined ? (
                  <div className="round-column">
                    <RoundView
                      round={selectedRound}
                      task={tasks.find((task) => task.id === selectedRound.task)}
                      leanRun={source?.kind === 'file' && view.lean === true ? source.name : undefined}
                    />
                    <PromptView
                      task={tasks.find((task) => task.id === selectedRound.task)}
                      rulebook={state.start?.rulebook}
                      mode={state.start?.config.mode ?? 'plan'}
                    />
                  </div>
                ) : (
                  <p className="muted">Pick a round in the list or the strip.</p>
                )}
              </div>
            ) : null}
            {tab === 'pressure' && pressureFiles.length > 0 ? <PressureView files={pressureFiles} rulebook={rulebook} /> : null}
            {tab === 'rulebook' && rulebook !== undefined ? <RulebookPanel rulebook={rulebook} temptedBy={temptedBy} /> : null}
          </div>
        </main>
      </div>
    </div>
  );
}
