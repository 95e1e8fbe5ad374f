import type { LiveWorker } from '@holdfast/core/browser';

interface WorkersPanelProps {
  /** The live run's workers as its coordinator reports them; absent for a run played in-process. */
  workers: readonly LiveWorker[] | undefined;
  onOpenRound: (roundId: string) => void;
}

const STATUS_TEXT: Record<LiveWorker['status'], string> = {
  live: 'live',
  stale: 'stale: no heartbeat',
  gone: 'left the queue',
};

/** A queued run's workers: which rounds each plays now, how many it finished, and whose heartbeat stopped. */
export function WorkersPanel({ workers, onOpenRound }: WorkersPanelProps) {
  if (workers === undefined) return null;
  const playing = workers.reduce((sum, worker) => sum + worker.playing.length, 0);
  return (
    <section className="panel workers" data-testid="workers" aria-label="Workers">
      <div className="panel-head">
        <h2>Workers</h2>
        <span className="muted">
          {workers.length} worker{workers.length === 1 ? '' : 's'} · {playing} round{playing === 1 ? '' : 's'} in play
        </span>
      </div>
      {workers.length === 0 ? (
        <p className="muted">No worker listens to this run's queues yet: its rounds wait until one starts (`holdfast worker --queue …`).</p>
      ) : (
        <table className="workers-table">
          <thead>
            <tr>
              <th scope="col">Worker</th>
              <th scope="col">Heartbeat</th>
              <th scope="col">Playing</th>
              <th scope="col">Done</th>
            </tr>
          </thead>
          <tbody>
            {workers.map((worker) => (
              <tr key={worker.id} data-testid="worker-row" data-worker={worker.id} data-status={worker.status} data-done={worker.done}>
                <th scope="row">
                  {worker.id}
                  {worker.host !== undefined ? <span className="muted"> on {worker.host}</span> : null}
                </th>
                <td>
                  <span className={`badge worker-${worker.status}`} title={worker.seenAt !== undefined ? `last heard ${worker.seenAt}` : undefined}>
                    {STATUS_TEXT[worker.status]}
                  </span>
                </td>
                <td data-testid="worker-playing">
                  {worker.playing.length === 0 ? (
                    <span className="muted">idle</span>
                  ) : (
                    worker.playing.map((roundId) => (
                      <button key={roundId} type="button" className="link" data-round-id={roundId} onClick={() => onOpenRound(roundId)}>
                        {roundId}
                      </button>
                    ))
                  )}
                </td>
                <td data-testid="worker-done">{worker.done}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
