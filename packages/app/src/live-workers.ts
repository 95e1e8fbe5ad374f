import type { LiveWorker, RunEvent } from '@holdfast/core/contract';
import type { WorkerBeat } from '@holdfast/lab/scale';

/**
 * The workers of one queued run as its coordinator sees them: from the run's own events, which
 * worker plays which round now and how many rounds each finished; from the queue's registry, whose
 * heartbeat is still heard. A worker that played rounds of the run but left the registry is `gone`.
 */
export class LiveWorkers {
  private readonly playing = new Map<string, Set<string>>();
  private readonly done = new Map<string, number>();
  /** Who plays each round now: a retried round moves to the worker of its new try. */
  private readonly roundWorker = new Map<string, string>();
  private beats: readonly WorkerBeat[] | undefined;

  /** Takes one run event; true when what the workers show changed. */
  apply(event: RunEvent): boolean {
    if (event.type === 'round-start' && event.worker !== undefined) {
      const previous = this.roundWorker.get(event.roundId);
      if (previous !== undefined) this.playing.get(previous)?.delete(event.roundId);
      this.roundWorker.set(event.roundId, event.worker);
      this.playingOf(event.worker).add(event.roundId);
      return true;
    }
    if (event.type === 'arm-end') {
      const worker = this.roundWorker.get(event.roundId);
      // The round's first arm-end ends it: the coordinator writes both arms of a result together.
      if (worker === undefined || this.playing.get(worker)?.delete(event.roundId) !== true) return false;
      this.done.set(worker, (this.done.get(worker) ?? 0) + 1);
      return true;
    }
    if (event.type === 'run-end') {
      for (const rounds of this.playing.values()) rounds.clear();
      return true;
    }
    return false;
  }

  /** The registry as the coordinator last read it. */
  beat(beats: readonly WorkerBeat[]): void {
    this.beats = beats;
  }

  list(): LiveWorker[] {
    const beats = new Map((this.beats ?? []).map((beat) => [beat.id, beat]));
    const ids = [...new Set([...beats.keys(), ...this.playing.keys()])].sort((left, right) => left.localeCompare(right));
    return ids.map((id) => {
      const beat = beats.get(id);
      // Before the registry's first answer nothing says a worker left.
      const status = beat === undefined ? (this.beats === undefined ? 'live' : 'gone') : beat.stale ? 'stale' : 'live';
      return {
        id,
        ...(beat !== undefined ? { host: beat.host, seenAt: new Date(beat.seenAt).toISOString() } : {}),
        status,
        playing: [...(this.playing.get(id) ?? [])],
        done: this.done.get(id) ?? 0,
      };
    });
  }

  private playingOf(worker: string): Set<string> {
    let rounds = this.playing.get(worker);
    if (rounds === undefined) {
      rounds = new Set();
      this.playing.set(worker, rounds);
    }
    return rounds;
  }
}
