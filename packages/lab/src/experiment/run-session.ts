import type { RunConfig, RunEvent, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { openRunFile } from '../store/index.js';
import type { RunFileWriter, RunState } from '../store/index.js';
import type { Approver } from './approvals.js';
import { runExperiment } from './runner.js';
import type { ExperimentOptions, ExperimentOutcome, ExperimentTarget, RoundSpec, SandboxRunOptions } from './runner.js';
import type { ArmResult } from '@holdfast/core/contract';
import { SessionTally } from './session-tally.js';

/** What every run session is given, played here (runSession) or through a queue (the scale coordinator). */
export interface SessionBaseOptions {
  readonly runId: string;
  readonly out: string;
  readonly config: RunConfig;
  readonly rulebook: Rulebook;
  readonly tasks: readonly TaskInfo[];
  readonly approver?: Approver;
  readonly signal?: AbortSignal;
  readonly demo?: string;
  /** Why the figures can differ from another output of the same replies; written into run-start. */
  readonly notes?: readonly string[];
  /** Resuming: the events already in `out`, whose complete rounds are skipped. */
  readonly previous?: readonly RunEvent[];
  /** Values (API keys) that must never reach the run file. */
  readonly secrets?: readonly string[];
}

export interface RunSessionOptions extends SessionBaseOptions {
  readonly targets: readonly ExperimentTarget[];
  readonly onEvent?: (event: RunEvent, state: RunState) => void;
  readonly onRoundEnd?: (round: RoundSpec, results: { told: ArmResult; held: ArmResult }) => void;
  readonly now?: () => Date;
  readonly timers?: ExperimentOptions['timers'];
  readonly sandbox?: SandboxRunOptions;
  readonly openLander?: ExperimentOptions['openLander'];
  readonly agent?: ExperimentOptions['agent'];
  readonly judgeReply?: ExperimentOptions['judgeReply'];
  readonly judge?: ExperimentOptions['judge'];
}

export interface RunSessionResult {
  readonly outcome: ExperimentOutcome;
  /** The run without its rounds (see SessionTally); its `totals` are the ones written at the end. */
  readonly state: RunState;
  readonly path: string;
}

/** Rounds whose two arms both ended: a resumed run does not run them again. */
export function completedRounds(state: RunState): Set<string> {
  const done = new Set<string>();
  for (const round of state.rounds) if (round.told !== undefined && round.held !== undefined) done.add(round.roundId);
  return done;
}

/**
 * One run from start to end: every event is appended to the run file as it happens, folded into
 * the state by the shared reducer, and handed to `onEvent` (the CLI's progress, the server's SSE).
 */
export async function runSession(options: RunSessionOptions): Promise<RunSessionResult> {
  const tally = new SessionTally();
  const done = tally.resume(options.previous ?? []);
  const writer: RunFileWriter = openRunFile(options.out, {
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
  });
  try {
    const outcome = await runExperiment({
      runId: options.runId,
      config: options.config,
      rulebook: options.rulebook,
      tasks: options.tasks,
      targets: options.targets,
      ...(options.approver !== undefined ? { approver: options.approver } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.demo !== undefined ? { demo: options.demo } : {}),
      ...(options.notes !== undefined ? { notes: options.notes } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.timers !== undefined ? { timers: options.timers } : {}),
      ...(options.onRoundEnd !== undefined ? { onRoundEnd: options.onRoundEnd } : {}),
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
      ...(options.openLander !== undefined ? { openLander: options.openLander } : {}),
      ...(options.agent !== undefined ? { agent: options.agent } : {}),
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
      ...(options.judgeReply !== undefined ? { judgeReply: options.judgeReply } : {}),
      ...(options.judge !== undefined ? { judge: options.judge } : {}),
      emitStart: options.previous === undefined,
      done,
      totals: () => tally.totals(),
      emit: (draft) => {
        const event = writer.append(draft);
        tally.add(event);
        options.onEvent?.(event, tally.state);
        return event;
      },
    });
    return { outcome, state: tally.state, path: writer.path };
  } finally {
    writer.close();
  }
}
