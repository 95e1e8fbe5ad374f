import { useMemo } from 'react';
import type { ApiPressureFile, ApiRunFile, ConfigResponse, LiveRunSummary, Totals } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import type { RunSource } from '../run-source.js';
import type { RunView } from '../use-run.js';
import type { ViewState } from '../view-state.js';
import { roundsTable, totalsTable } from '../view-tables.js';
import { CompareView } from './compare-view.js';
import { ExportButtons } from './export-buttons.js';
import { PressureView } from './pressure-view.js';
import { PromptView } from './prompt-view.js';
import { RateDefinitions } from './rate-definitions.js';
import { RoundFilters } from './round-filters.js';
import { RoundList } from './round-list.js';
import { RoundView } from './round-view.js';
import { RulebookPanel } from './rulebook-panel.js';
import { TotalsView } from './totals-view.js';

interface RunTabPanelProps {
  source: RunSource | undefined;
  view: RunView;
  totals: Totals;
  viewState: ViewState;
  setViewState: (view: ViewState) => void;
  rounds: readonly RoundState[];
  shownRounds: readonly RoundState[];
  selectedRound: RoundState | undefined;
  onSelectRound: (roundId: string) => void;
  config: ConfigResponse | undefined;
  liveRuns: readonly LiveRunSummary[];
  savedFiles: readonly ApiRunFile[];
  pressureFiles: readonly ApiPressureFile[];
}

/** The open tab's panel: totals, rounds (list and the open round), compare, rulebook or pressure. */
export function RunTabPanel(props: RunTabPanelProps) {
  const { source, view, totals, viewState, setViewState, rounds, shownRounds, config, pressureFiles } = props;
  const { state } = view;
  const tab = viewState.tab;
  const runName = source === undefined ? 'run' : source.kind === 'file' ? source.name.replace(/\.jsonl$/, '') : source.runId;
  const rulebook = state.start?.rulebook ?? config?.rulebook;
  const temptedBy = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const task of state.start?.tasks ?? config?.tasks ?? []) for (const rule of task.tempts) map.set(rule, [...(map.get(rule) ?? []), task.id]);
    return map;
  }, [state.start, config]);
  const roundTargets = useMemo(() => [...new Set(rounds.map((round) => round.target))], [rounds]);
  const roundTasks = useMemo(() => [...new Set(rounds.map((round) => round.task))], [rounds]);

  return (
    <div id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
      {tab === 'totals' ? (
        <>
          <ExportButtons what="totals" table={() => totalsTable(totals, runName)} />
          <TotalsView totals={totals} />
          <RateDefinitions />
        </>
      ) : null}
      {tab === 'rounds' ? (
        <>
          <RoundFilters view={viewState} targets={roundTargets} tasks={roundTasks} shown={shownRounds.length} total={rounds.length} onChange={setViewState} />
          <ExportButtons what="these rounds" table={() => roundsTable(shownRounds, runName)} />
          <RoundsSplit {...props} />
        </>
      ) : null}
      {tab === 'compare' ? (
        <CompareView
          name={runName}
          self={source?.kind === 'file' ? source.name : undefined}
          totals={totals}
          mode={state.start?.config.mode ?? 'plan'}
          runFiles={props.savedFiles}
          liveRuns={props.liveRuns}
          other={viewState.vs}
          onOther={(other) => {
            const { vs: _previous, ...rest } = viewState;
            setViewState(other === undefined ? rest : { ...rest, vs: other });
          }}
        />
      ) : null}
      {tab === 'pressure' && pressureFiles.length > 0 ? <PressureView files={pressureFiles} rulebook={rulebook} /> : null}
      {tab === 'rulebook' && rulebook !== undefined ? <RulebookPanel rulebook={rulebook} temptedBy={temptedBy} /> : null}
    </div>
  );
}

function RoundsSplit({ source, view, shownRounds, selectedRound, onSelectRound }: RunTabPanelProps) {
  const { state } = view;
  const tasks = state.start?.tasks ?? [];
  const task = selectedRound === undefined ? undefined : tasks.find((candidate) => candidate.id === selectedRound.task);
  return (
    <div className="rounds-split">
      <RoundList rounds={shownRounds} selectedRoundId={selectedRound?.roundId} onSelect={onSelectRound} />
      {selectedRound !== undefined ? (
        <div className="round-column">
          <RoundView round={selectedRound} task={task} leanRun={source?.kind === 'file' && view.lean === true ? source.name : undefined} />
          <PromptView task={task} rulebook={state.start?.rulebook} mode={state.start?.config.mode ?? 'plan'} />
        </div>
      ) : (
        <p className="muted">Pick a round in the list or the strip.</p>
      )}
    </div>
  );
}
