import type { CommandRun } from './command.js';
import type { SizeBudget } from './size-budget.js';

/** How a command that started ended, and what it left: the sentences a plan landing and a loop tool call both show. */
export interface CommandEnding {
  /** "Exited with code 1.", "Killed after the 60 s timeout.", "Ended by signal SIGTERM." */
  readonly ended: string;
  /** `ended`, followed by the cap it left the work tree over, if it did. */
  readonly detail: string;
  /** Why the tree is over its cap after the command; absent when it is within. */
  readonly overCap?: string;
}

/**
 * Says how a started sandbox command (runSandboxCommand) ended and measures the work tree after it:
 * a command may write anything, so every mode that runs one checks the size cap at the same point
 * and words the outcome the same way.
 */
export function commandEnding(run: CommandRun, timeoutMs: number, budget: SizeBudget): CommandEnding {
  const ended = run.timedOut
    ? `Killed after the ${Math.round(timeoutMs / 1000)} s timeout.`
    : run.exitCode !== undefined
      ? `Exited with code ${run.exitCode}.`
      : `Ended by signal ${run.signal ?? 'unknown'}.`;
  const measured = budget.measure();
  if (measured.ok) return { ended, detail: ended };
  return { ended, detail: `${ended} It left the ${measured.reason}.`, overCap: measured.reason };
}
