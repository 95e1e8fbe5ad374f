import type { ApiRunFile } from '@holdfast/core/browser';

/**
 * No run to show (an empty runs folder, no default run): what to do next, instead of a page that says "loading".
 * `runFiles` is undefined until the run list has come: the folder is not called empty before it was read,
 * nor when it could not be read (`listError`).
 */
export function EmptyRuns({ runFiles, listError }: { runFiles: readonly ApiRunFile[] | undefined; listError?: string | undefined }) {
  if (listError !== undefined) {
    return (
      <section className="panel empty-runs" data-testid="empty-runs" data-read="failed" aria-label="No run open">
        <h2>No run open</h2>
        <p role="alert">
          The runs folder could not be read: {listError}. Reload the page to try again; the terminal running <code>holdfast serve</code> says more.
        </p>
      </section>
    );
  }
  if (runFiles === undefined) {
    return (
      <section className="panel empty-runs" data-testid="empty-runs" data-read="no" aria-label="No run open">
        <h2>No run open</h2>
        <p className="muted">Reading the runs folder…</p>
      </section>
    );
  }
  return (
    <section className="panel empty-runs" data-testid="empty-runs" data-read="yes" aria-label="No run open">
      <h2>{runFiles.length === 0 ? 'No runs yet' : 'No run open'}</h2>
      {runFiles.length === 0 ? (
        <>
          <p>The runs folder is empty. Start a run with the form: pick a mode, a target that is ready and the tasks, then Run.</p>
          <p className="muted small">
            No key? <code>holdfast run --replies runs/demo/replies.json</code> in a terminal writes the demo run (hand-written replies) here, and it can then be
            opened and replayed from this page.
          </p>
        </>
      ) : (
        <p>Pick a saved run in the run menu at the top, or start one with the form.</p>
      )}
    </section>
  );
}
