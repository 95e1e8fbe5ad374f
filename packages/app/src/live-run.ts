import type { RunEvent } from '@holdfast/core/contract';
import type { PendingApprovals } from '@holdfast/lab/experiment';
import type { WorkerBeat } from '@holdfast/lab/scale';
import { LiveRunBoard } from './live-run-board.js';

/** What a stream does with a live run: every event as it is stored, then the end. */
export interface RunSubscriber {
  event(event: RunEvent): void;
  end(): void;
}

export interface LiveRunInit {
  readonly runId: string;
  /** The run file's name inside the runs folder. */
  readonly name: string;
  readonly token: string;
  /** The HTTP commit gate; absent when the run has no human gate. */
  readonly approvals?: PendingApprovals;
  readonly controller: AbortController;
  /** Its rounds are played by queue workers (`serve --queue`): the run reports their heartbeats. */
  readonly queued?: boolean;
}

/**
 * A run this process is executing. Its events are kept in order so a stream that connects (or
 * reconnects) late replays the past and then follows live, with nothing lost in between: replay
 * and subscribe happen in the same tick.
 */
export class LiveRun {
  readonly runId: string;
  readonly name: string;
  readonly token: string;
  readonly approvals: PendingApprovals | undefined;
  readonly controller: AbortController;
  readonly queued: boolean;
  private readonly stored: RunEvent[] = [];
  private readonly beatWatchers = new Set<(beats: readonly WorkerBeat[]) => void>();
  private readonly subscribers = new Set<RunSubscriber>();
  private ended = false;
  private readonly settled: Promise<void>;
  private settle!: () => void;

  constructor(init: LiveRunInit) {
    this.runId = init.runId;
    this.name = init.name;
    this.token = init.token;
    this.approvals = init.approvals;
    this.controller = init.controller;
    this.queued = init.queued === true;
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  get events(): readonly RunEvent[] {
    return this.stored;
  }

  get finished(): boolean {
    return this.ended;
  }

  /** Resolves once the run has ended and its file is closed. */
  get done(): Promise<void> {
    return this.settled;
  }

  push(event: RunEvent): void {
    this.stored.push(event);
    for (const subscriber of this.subscribers) subscriber.event(event);
  }

  /** A queued run's workers as its coordinator last read them from the queue's registry. */
  reportWorkers(beats: readonly WorkerBeat[]): void {
    for (const watcher of this.beatWatchers) watcher(beats);
  }

  watchWorkers(watcher: (beats: readonly WorkerBeat[]) => void): () => void {
    this.beatWatchers.add(watcher);
    return () => this.beatWatchers.delete(watcher);
  }

  finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const subscriber of this.subscribers) subscriber.end();
    this.subscribers.clear();
    this.settle();
  }

  /**
   * Hands `subscriber` every stored event with seq greater than `afterSeq`, then the live ones.
   * Returns the unsubscribe function; a finished run ends the subscriber at once.
   */
  follow(afterSeq: number, subscriber: RunSubscriber): () => void {
    for (const event of this.stored) if (event.seq > afterSeq) subscriber.event(event);
    if (this.ended) {
      subscriber.end();
      return () => {};
    }
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }
}

/** The runs this process started, by run id. */
export class RunRegistry {
  private readonly runs = new Map<string, LiveRun>();
  /** Every run's summary and waiting commits, for the header of every page. */
  readonly board = new LiveRunBoard();

  add(run: LiveRun): LiveRun {
    this.runs.set(run.runId, run);
    this.board.track(run);
    return run;
  }

  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  all(): LiveRun[] {
    return [...this.runs.values()];
  }

  /** Cancels every unfinished run and waits until each has written its end and closed its file. */
  async cancelAll(): Promise<void> {
    const open = this.all().filter((run) => !run.finished);
    for (const run of open) run.controller.abort();
    await Promise.all(open.map((run) => run.done));
  }
}
