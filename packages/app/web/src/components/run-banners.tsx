import type { RunState } from '@holdfast/lab/browser';

interface RunBannersProps {
  state: RunState;
  loadError: string | undefined;
  configError: string | undefined;
  problems: readonly string[];
}

/** What the reader must know before any figure: a demo run, a run or configuration that could not be read, a run that ended early. */
export function RunBanners({ state, loadError, configError, problems }: RunBannersProps) {
  return (
    <>
      {state.start?.demo !== undefined ? (
        <div className="demo-banner" role="note" data-testid="demo-banner">
          <b>Demo run:</b> {state.start.demo}
        </div>
      ) : null}
      {(state.start?.notes ?? []).map((note) => (
        <div key={note} className="warning-banner" role="note" data-testid="run-note">
          <b>Note:</b> {note}
        </div>
      ))}
      {loadError !== undefined ? <div className="error-banner">Could not load the run: {loadError}</div> : null}
      {configError !== undefined ? <div className="error-banner">Could not load the configuration: {configError}</div> : null}
      {problems.length > 0 ? (
        <div className="warning-banner">
          {problems.length} line{problems.length === 1 ? '' : 's'} of this run could not be read: {problems[0]}
        </div>
      ) : null}
      {state.end?.reason !== undefined ? (
        <div className="warning-banner">
          Run {state.end.status}: {state.end.reason}
        </div>
      ) : null}
    </>
  );
}
