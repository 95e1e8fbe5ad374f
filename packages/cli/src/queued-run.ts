import type { QueuedSessionOptions, QueuedSessionResult, WorkerBeat, WorkerCapabilities } from '@holdfast/lab/scale';
import { writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

function describeWorker(worker: WorkerCapabilities): string {
  const isolation = worker.isolation === 'bubblewrap' ? 'isolated' : worker.unsafe ? 'UNISOLATED (--unsafe-no-isolation)' : 'no isolation: plain rounds only';
  const agents = worker.agents.length > 0 ? `; agents ${worker.agents.join(', ')}` : '';
  return `${worker.id} on ${worker.host} (pid ${worker.pid}): targets ${worker.targets.join(', ') || '(none)'}; ${isolation}; ${worker.concurrency} per queue${agents}`;
}

/**
 * What changed in the workers' heartbeats since the last read, as lines for the terminal: a worker
 * that went stale (or came back), and one that joined after the rounds were queued. `known` is
 * updated in place: worker id → whether it was stale.
 */
export function workerBeatLines(known: Map<string, boolean>, beats: readonly WorkerBeat[]): string[] {
  const lines: string[] = [];
  for (const beat of beats) {
    const before = known.get(beat.id);
    if (before === undefined && !beat.stale) lines.push(`Worker ${beat.id} on ${beat.host} joined.`);
    else if (before !== true && beat.stale)
      lines.push(
        `Worker ${beat.id} on ${beat.host} is stale: no heartbeat since ${new Date(beat.seenAt).toISOString()}; its rounds go back to the queue after its stall timeout.`,
      );
    else if (before === true && !beat.stale) lines.push(`Worker ${beat.id} on ${beat.host} is beating again.`);
    known.set(beat.id, beat.stale);
  }
  return lines;
}

/**
 * The coordinator at the terminal: who is there to play the rounds when they are queued (and which
 * targets nobody can play yet), and at the end how many rounds each worker delivered.
 */
export async function queuedRun(io: CliIo, options: QueuedSessionOptions): Promise<QueuedSessionResult> {
  const { runQueuedSession } = await import('@holdfast/lab/scale');
  writeLine(io.stderr, `Queue: ${options.connection.label}. Rounds go to \`holdfast worker --queue ${options.connection.label}\` processes.`);
  // The workers listed when the rounds are queued are known; later lines say only what changed.
  const known = new Map<string, boolean>();
  const result = await runQueuedSession({
    ...options,
    onWorkerBeat: (beats) => {
      for (const line of workerBeatLines(known, beats)) writeLine(io.stderr, line);
      options.onWorkerBeat?.(beats);
    },
    onWorkers: (workers, unserved) => {
      if (workers.length === 0) writeLine(io.stderr, 'Workers: none yet; the rounds wait in the queue until one starts.');
      for (const worker of workers) {
        writeLine(io.stderr, `Worker ${describeWorker(worker)}`);
        known.set(worker.id, false);
      }
      if (unserved.length > 0) writeLine(io.stderr, `No live worker plays ${unserved.join(', ')} yet: those rounds wait for one that does.`);
      options.onWorkers?.(workers, unserved);
    },
  });
  const rows = [...result.byWorker.entries()].sort(([left], [right]) => left.localeCompare(right));
  if (rows.length > 0) writeLine(io.stderr, `Rounds per worker: ${rows.map(([worker, count]) => `${worker} ${count}`).join(' · ')}`);
  return result;
}
