import type { ArmResult, CheckResult, LandRequest, RunStartEvent, Rulebook } from '@holdfast/core/contract';

/**
 * What landing did: `result` carries the evidence (each applied action's `landed`, the sandbox
 * record); `halt` and `failure` say where it stopped and why. A lander never decides a verdict.
 */
export interface Landing {
  readonly result: ArmResult;
  readonly halt?: { readonly index: number; readonly check: CheckResult };
  readonly failure?: { readonly index?: number; readonly code: string; readonly message: string };
}

/**
 * Where a plan-mode run's applied actions really land (`config.sandbox`). The runner decides each
 * verdict from the checks, then hands the arm to the lander for evidence; the composition root
 * (CLI, server, queue worker) passes the sandbox-backed one, as it passes the approver.
 */
export interface Lander {
  readonly isolation: NonNullable<RunStartEvent['isolation']>;
  /** Never throws for what the model did: a file-system error comes back as `failure`. */
  land(request: LandRequest): Promise<Landing>;
  /** Removes everything the run made. */
  dispose(): Promise<void>;
}

/** Opens the run's lander before its first event; refuses (throws) when commands could not be confined. */
export type OpenLander = (rulebook: Rulebook) => Promise<Lander>;
