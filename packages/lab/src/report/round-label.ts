/** The parts of a round a person reads: its target, task and repetition. */
export interface RoundName {
  readonly target: string;
  readonly task: string;
  readonly rep: number;
}

/**
 * A round as every human-facing output names it (terminal progress and summaries, reports, the web
 * page): repetitions counted from 1. The run file's `rep` field and round ids count from 0 and stay so.
 */
export function roundLabel(round: RoundName): string {
  return `${round.target} · ${round.task} · rep ${round.rep + 1}`;
}
