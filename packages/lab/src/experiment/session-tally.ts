import type { ArmResult, RunEvent, Totals } from '@holdfast/core/contract';
import { TotalsTally, initialRunState, reduceRunEvent, reduceRunEvents } from '../store/index.js';
import type { RunState } from '../store/index.js';

interface OpenRound {
  readonly target: string;
  readonly task: string;
  told?: ArmResult;
  held?: ArmResult;
}

/**
 * What a running session keeps of its events: the run-level state (start, approvals, end) and the
 * totals folded round by round. A round is held only while it is in flight; once both arms ended
 * it is counted and let go, so memory is flat in the number of calls (the run file has it all).
 */
export class SessionTally {
  private runState: RunState = initialRunState();
  private tally: TotalsTally = new TotalsTally();
  private readonly open = new Map<string, OpenRound>();
  private planned = false;

  /** Starts from the events already in a resumed file; returns the ids of its finished rounds. */
  resume(previous: readonly RunEvent[]): Set<string> {
    const full = reduceRunEvents(previous);
    const done = new Set<string>();
    this.planFrom(full);
    for (const round of full.rounds) {
      if (round.told !== undefined && round.held !== undefined) {
        this.tally.add(round);
        done.add(round.roundId);
      } else {
        this.open.set(round.roundId, {
          target: round.target,
          task: round.task,
          ...(round.told !== undefined ? { told: round.told } : {}),
          ...(round.held !== undefined ? { held: round.held } : {}),
        });
      }
    }
    this.runState = { ...full, rounds: initialRunState().rounds, roundIndex: new Map() };
    return done;
  }

  add(event: RunEvent): void {
    switch (event.type) {
      case 'round-start':
        // A round started again (a resumed run retries it) starts over without its old arms.
        this.open.set(event.roundId, { target: event.target, task: event.task });
        return;
      case 'arm-end': {
        const round = this.open.get(event.roundId) ?? { target: event.target, task: event.task };
        round[event.result.arm] = event.result;
        if (round.told !== undefined && round.held !== undefined) {
          this.tally.add(round);
          this.open.delete(event.roundId);
        } else this.open.set(event.roundId, round);
        return;
      }
      case 'judge':
        return;
      default:
        this.runState = reduceRunEvent(this.runState, event);
        if (event.type === 'run-start') this.planFrom(this.runState);
    }
  }

  /** The run without its rounds (they were counted and let go): start, approvals, the last totals, the end. */
  get state(): RunState {
    return this.runState;
  }

  /** Totals of every arm that ended so far, `computeTotals` of the same events. */
  totals(): Totals {
    return this.tally.totals(this.open.values());
  }

  private planFrom(state: RunState): void {
    const start = state.start;
    // The plan comes with the first run-start, before any round is counted; a later one changes nothing.
    if (start === undefined || this.planned) return;
    this.planned = true;
    this.tally = new TotalsTally({ rulebook: start.rulebook, targets: start.config.targets, tasks: start.config.tasks });
  }
}
