import { basename } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { RunEvent, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { checkRecordedRulebook } from '@holdfast/core/rules';
import { resolveReplayTargets } from './resolve-targets.js';
import type { ExperimentTarget } from './runner.js';
import { selectTasks } from './tasks.js';

/**
 * The one run planner: `holdfast run` and the web app's POST /api/run ask these functions whether a
 * request can run, so the same request is accepted or refused the same way, with the same words,
 * before a run file exists.
 */

type RunMode = 'plan' | 'loop' | 'agent';

/** What a person asked for, whether from the command's flags or the web form's selection. */
export interface RunRequest {
  readonly mode: RunMode;
  /** Where the replies come from: live targets, a saved run, a replies file, or an interrupted run. */
  readonly source: 'targets' | 'replay' | 'replies' | 'resume';
  readonly sandbox: boolean;
  /** A turn cap or a session timeout was given. */
  readonly sessionLimits: boolean;
}

const REFUSED = 'E_SELECTION';

/** Refuses the combinations no run can honour; the message names the setting to change. */
export function checkRunRequest(request: RunRequest): void {
  const { mode } = request;
  if (mode !== 'plan' && (request.source === 'replay' || request.source === 'replies'))
    throw new InputError(
      REFUSED,
      `${mode} mode plays live sessions; recorded replies (a replayed run, a replies file) play in plan mode only. Choose plan mode, or live targets for ${mode} mode.`,
    );
  if (mode === 'plan' && request.sessionLimits)
    throw new InputError(REFUSED, 'a turn cap and a session timeout are for loop and agent modes; plan mode has one reply per arm.');
  if (mode === 'agent' && request.sandbox) throw new InputError(REFUSED, 'agent mode always works in throwaway repositories; leave the sandbox off.');
}

/** What to replay of a saved run; an absent field takes the recorded value. */
export interface ReplayRequest {
  readonly targets?: readonly string[] | undefined;
  readonly tasks: 'all' | readonly string[];
  readonly reps?: number | undefined;
  /** Whether this replay lands in sandboxes: a file recorded with them gives other figures without. */
  readonly sandbox: boolean;
}

export interface ReplayPlan {
  readonly rulebook: Rulebook;
  readonly tasks: TaskInfo[];
  readonly targetIds: readonly string[];
  readonly targets: ExperimentTarget[];
  readonly reps: number;
  readonly demo?: string;
  /** Sentences that say why this replay's figures can differ from the recording's. */
  readonly notes: readonly string[];
}

/**
 * Plans a replay of a saved run's recorded replies (no key, no network), refusing what the file cannot
 * answer: a run of another mode, targets or tasks it did not record, repetitions it does not hold.
 * `file` names the saved run in messages (its base name, the same from the terminal and the page).
 */
export function planReplay(events: readonly RunEvent[], file: string, request: ReplayRequest): ReplayPlan {
  const name = basename(file);
  const start = events.find((event) => event.type === 'run-start');
  if (start === undefined || start.type !== 'run-start')
    throw new InputError('E_RUN_FILE', `the saved run "${name}" has no run-start event, so its targets and tasks are unknown.`);
  const recordedMode = start.config.mode ?? 'plan';
  if (recordedMode !== 'plan')
    throw new InputError(
      REFUSED,
      `the saved run "${name}" is a ${recordedMode} mode run: its sessions cannot be replayed, only opened (holdfast report, or the web app).`,
    );
  const recordedReps = start.config.reps;
  const reps = request.reps ?? recordedReps;
  if (reps > recordedReps)
    throw new InputError(
      REFUSED,
      `the saved run "${name}" recorded ${recordedReps} repetition${recordedReps === 1 ? '' : 's'} of each round; a replay can play at most ${recordedReps} (asked for ${reps}).`,
    );
  const tasks = selectTasks(start.tasks, request.tasks);
  const targetIds = request.targets ?? start.config.targets;
  const targets = resolveReplayTargets(targetIds, events);
  const notes =
    start.config.sandbox && !request.sandbox
      ? [
          `"${name}" was recorded with the sandbox (each arm landed in a git worktree and its tests really ran); this replay lands without it, so its figures can differ from the recording's. Replay with the sandbox (--sandbox) to play it as recorded.`,
        ]
      : [];
  return {
    rulebook: checkRecordedRulebook(start.rulebook, file),
    tasks,
    targetIds,
    targets,
    reps,
    ...(start.demo !== undefined ? { demo: start.demo } : {}),
    notes,
  };
}
