import type { ArmResult } from './arm-result.js';
import type { CheckResult } from './check-result.js';
import type { TaskInfo } from './events.js';
import type { Arm } from './verdict.js';

/**
 * How a `run` action really ended, observed by whoever executed it (the sandbox), not claimed by
 * the model. `passed` is the one thing a check needs; `ending` says why in words.
 */
export interface ObservedRun {
  readonly passed: boolean;
  /** "exit code 1", "killed after the timeout", "not executed: …". */
  readonly ending: string;
}

/** Re-judges an applied action once commands have run, given how they ended (the held arm: R6 needs their outcomes). */
export type Recheck = (index: number, observed: ReadonlyMap<number, ObservedRun>) => Promise<CheckResult | undefined>;

/** One arm to land: the runner's port (experiment/lander.ts) and the sandbox that serves it take the same request. */
export interface LandRequest {
  readonly task: TaskInfo;
  readonly roundId: string;
  readonly arm: Arm;
  readonly result: ArmResult;
  readonly signal?: AbortSignal;
  readonly recheck?: Recheck;
}
