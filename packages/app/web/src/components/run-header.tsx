import type { ApiRunFile, LiveRunSummary } from '@holdfast/core/browser';
import type { RunState } from '@holdfast/lab/browser';
import { cancelRun } from '../api-client.js';
import { hashOfSource, sourceFromHash } from '../run-source.js';
import type { RunSource } from '../run-source.js';
import type { Connection } from '../use-run.js';
import { WaitingApprovals } from './waiting-approvals.js';

interface RunHeaderProps {
  source: RunSource | undefined;
  state: RunState;
  connection: Connection;
  liveRuns: readonly LiveRunSummary[];
  /** Saved run files that no run of this server is still writing. */
  savedFiles: readonly ApiRunFile[];
  token: string | undefined;
  /** Nothing to open (an empty runs folder, no default run): the status says so instead of "loading" forever. */
  noRun: boolean;
  onOpen: (source: RunSource) => void;
}

/** The top bar: which run is open (live runs of this server and saved files), its status, and the waiting commits of every run. */
export function RunHeader({ source, state, connection, liveRuns, savedFiles, token, noRun, onOpen }: RunHeaderProps) {
  const rounds = state.rounds.length;
  const finishedArms = state.rounds.toArray().reduce((sum, round) => sum + (round.told === undefined ? 0 : 1) + (round.held === undefined ? 0 : 1), 0);
  const planned = state.start === undefined ? undefined : state.start.config.targets.length * state.start.config.tasks.length * state.start.config.reps;
  const liveRunId = source?.kind === 'live' ? source.runId : undefined;
  const running = liveRunId !== undefined && state.end === undefined;
  const status = noRun
    ? 'no run open'
    : state.end !== undefined
      ? state.end.status
      : connection === 'loading'
        ? 'loading'
        : source?.kind === 'live'
          ? `running (${connection})`
          : 'interrupted: the file has no run end';
  return (
    <header className="top">
      <h1>holdfast</h1>
      <RunPicker source={source} liveRuns={liveRuns} savedFiles={savedFiles} onOpen={onOpen} />
      <span
        className="run-status"
        data-testid="run-status"
        data-status={noRun ? 'none' : (state.end?.status ?? (connection === 'loading' ? 'loading' : source?.kind === 'live' ? 'running' : 'no-end'))}
      >
        {state.runId ?? ''}
        {noRun ? '' : ' · '}
        {status}
        {noRun ? null : (
          <>
            {' · '}
            {rounds}
            {planned !== undefined ? `/${planned}` : ''} rounds · {finishedArms} arms finished
          </>
        )}
        {state.start !== undefined ? <span data-testid="run-mode"> · {state.start.config.mode ?? 'plan'} mode</span> : null}
      </span>
      <WaitingApprovals runs={liveRuns} />
      {running && token !== undefined ? (
        <button type="button" className="refuse" onClick={() => void cancelRun(liveRunId, token).catch(() => undefined)}>
          Cancel run
        </button>
      ) : null}
    </header>
  );
}

function RunPicker({ source, liveRuns, savedFiles, onOpen }: Pick<RunHeaderProps, 'source' | 'liveRuns' | 'savedFiles' | 'onOpen'>) {
  const pickerValue = source === undefined ? '' : hashOfSource(source);
  const listed =
    liveRuns.some((run) => hashOfSource({ kind: 'live', runId: run.runId }) === pickerValue) ||
    savedFiles.some((file) => hashOfSource({ kind: 'file', name: file.name }) === pickerValue);
  return (
    <label className="picker">
      run
      <select
        value={pickerValue}
        data-testid="run-picker"
        onChange={(event) => {
          const next = sourceFromHash(event.target.value);
          if (next !== undefined) onOpen(next);
        }}
      >
        {source !== undefined && !listed ? <option value={pickerValue}>{source.kind === 'live' ? `live: ${source.runId}` : source.name}</option> : null}
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
  );
}
