import type { LiveApproval, LiveRunSummary, LiveRunsResponse, RunEvent } from '@holdfast/core/contract';
import type { LiveRun } from './live-run.js';
import { LiveWorkers } from './live-workers.js';

interface Tracked {
  readonly run: LiveRun;
  running: boolean;
  rounds: number;
  readonly pending: Map<string, LiveApproval>;
  /** A queued run's workers. */
  readonly workers?: LiveWorkers;
}

/**
 * What every page shows in its header: the runs this process started, with their waiting commits.
 * Each run is followed from its first event; a watcher hears once per tick after anything it shows
 * changed (a round began, a commit started or stopped waiting, a run ended), so a burst of events
 * costs one message.
 */
export class LiveRunBoard {
  private readonly tracked: Tracked[] = [];
  private readonly watchers = new Set<(snapshot: LiveRunsResponse) => void>();
  private queued = false;

  track(run: LiveRun): void {
    const entry: Tracked = { run, running: true, rounds: 0, pending: new Map(), ...(run.queued ? { workers: new LiveWorkers() } : {}) };
    this.tracked.unshift(entry);
    run.watchWorkers((beats) => {
      entry.workers?.beat(beats);
      this.changed();
    });
    run.follow(-1, {
      event: (event) => {
        const workers = entry.workers?.apply(event) === true;
        if (apply(entry, event) || workers) this.changed();
      },
      end: () => {
        entry.running = false;
        entry.pending.clear();
        this.changed();
      },
    });
    this.changed();
  }

  snapshot(): LiveRunsResponse {
    return { runs: this.tracked.map(summaryOf) };
  }

  /** Calls `watcher` with every later snapshot; returns the function that stops it. */
  watch(watcher: (snapshot: LiveRunsResponse) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private changed(): void {
    if (this.queued || this.watchers.size === 0) return;
    this.queued = true;
    process.nextTick(() => {
      this.queued = false;
      const snapshot = this.snapshot();
      for (const watcher of this.watchers) watcher(snapshot);
    });
  }
}

function apply(entry: Tracked, event: RunEvent): boolean {
  switch (event.type) {
    case 'round-start':
      entry.rounds += 1;
      return true;
    case 'approval-request':
      entry.pending.set(event.approvalId, {
        approvalId: event.approvalId,
        roundId: event.roundId,
        target: event.target,
        task: event.task,
        rep: event.rep,
        arm: event.arm,
        message: event.message,
        deadline: event.deadline,
      });
      return true;
    case 'approval-end':
      return entry.pending.delete(event.approvalId);
    case 'run-end':
      entry.running = false;
      entry.pending.clear();
      return true;
    default:
      return false;
  }
}

function summaryOf(entry: Tracked): LiveRunSummary {
  return {
    runId: entry.run.runId,
    name: entry.run.name,
    running: entry.running,
    rounds: entry.rounds,
    pending: [...entry.pending.values()],
    ...(entry.workers !== undefined ? { workers: entry.workers.list() } : {}),
  };
}
