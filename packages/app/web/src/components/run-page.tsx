import { useCallback, useMemo } from 'react';
import type { ApiPressureFile, ApiRunFile, ConfigResponse, LiveRunSummary, Totals } from '@holdfast/core/browser';
import { findRound } from '@holdfast/lab/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { answerApproval } from '../api-client.js';
import { filterRounds } from '../round-filter.js';
import type { RunSource } from '../run-source.js';
import type { RunView } from '../use-run.js';
import { useRoundKeys } from '../use-round-keys.js';
import type { Tab, ViewState } from '../view-state.js';
import { ApprovalsPanel } from './approvals-panel.js';
import { EmptyRuns } from './empty-runs.js';
import { HeadlineView } from './headline-view.js';
import { RunTabPanel } from './run-tab-panel.js';
import { RunTabs } from './run-tabs.js';
import { ToldHeldChart } from './told-held-chart.js';
import { VerdictStrip } from './verdict-strip.js';
import { WorkersPanel } from './workers-panel.js';

interface RunPageProps {
  source: RunSource | undefined;
  view: RunView;
  totals: Totals;
  viewState: ViewState;
  setViewState: (view: ViewState) => void;
  config: ConfigResponse | undefined;
  liveRuns: readonly LiveRunSummary[];
  savedFiles: readonly ApiRunFile[];
  pressureFiles: readonly ApiPressureFile[];
  /** The run files there are, for the empty state's advice; undefined until the list has come. */
  runFiles: readonly ApiRunFile[] | undefined;
  /** Why the run list could not be read, when it could not. */
  runListError: string | undefined;
}

/**
 * One run, read top down: the headline (does the model obey when told, does the gate hold), the
 * chart of attempts and landings told vs held, then what needs a person (commits waiting), then
 * the details: the strip of every round and the tabs.
 */
export function RunPage({ source, view, totals, viewState, setViewState, config, liveRuns, savedFiles, pressureFiles, runFiles, runListError }: RunPageProps) {
  const { state } = view;
  const rounds = useMemo(() => state.rounds.toArray(), [state.rounds]);
  const targets = useMemo(() => state.start?.config.targets ?? [], [state.start]);
  const selectedRoundId = viewState.round;
  const liveRunId = source?.kind === 'live' ? source.runId : undefined;
  const token = view.token;
  const answer = useMemo(
    () =>
      liveRunId === undefined || token === undefined
        ? undefined
        : (approvalId: string, approve: boolean) => answerApproval(liveRunId, approvalId, approve, token),
    [liveRunId, token],
  );
  const selectRound = useCallback((roundId: string) => setViewState({ ...viewState, tab: 'rounds', round: roundId }), [viewState, setViewState]);
  const shownRounds = useMemo(() => filterRounds(rounds, viewState), [rounds, viewState]);
  useRoundKeys(shownRounds, selectedRoundId, selectRound);
  const selectedPosition = selectedRoundId === undefined ? -1 : findRound(state, selectedRoundId);
  const selectedRound: RoundState | undefined = selectedPosition >= 0 ? state.rounds.at(selectedPosition) : undefined;
  const tabs: readonly Tab[] = pressureFiles.length > 0 ? ['totals', 'rounds', 'compare', 'rulebook', 'pressure'] : ['totals', 'rounds', 'compare', 'rulebook'];
  const approvalsShown = state.pendingApprovals.length > 0 || state.start?.config.approve === 'http' || state.start?.config.approve === 'ask';

  // Nothing to open (an empty runs folder, no default run): say what to do, not "loading" forever.
  const noRun = source === undefined && config !== undefined;

  return (
    <main className={noRun ? 'no-run' : undefined}>
      {noRun ? <EmptyRuns runFiles={runFiles} listError={runListError} /> : null}
      <HeadlineView totals={totals} />
      <ToldHeldChart totals={totals} />
      {approvalsShown ? (
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
      <RunTabs
        tabs={tabs}
        tab={viewState.tab}
        rounds={rounds.length}
        pressureFiles={pressureFiles.length}
        onTab={(next) => setViewState({ ...viewState, tab: next })}
      />
      <RunTabPanel
        source={source}
        view={view}
        totals={totals}
        viewState={viewState}
        setViewState={setViewState}
        rounds={rounds}
        shownRounds={shownRounds}
        selectedRound={selectedRound}
        onSelectRound={selectRound}
        config={config}
        liveRuns={liveRuns}
        savedFiles={savedFiles}
        pressureFiles={pressureFiles}
      />
    </main>
  );
}
