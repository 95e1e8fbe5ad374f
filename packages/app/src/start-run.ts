import { RunSelectionSchema, InputError } from '@holdfast/core/contract';
import type { RunEvent } from '@holdfast/core/contract';
import type { RunConfig, RunSelection, Rulebook, TargetInfo, TaskInfo } from '@holdfast/core/contract';
import { PendingApprovals } from '@holdfast/lab/experiment';
import { configuredTargetInfos, resolveConfiguredTargets } from '@holdfast/lab/experiment';
import type { ExperimentTarget } from '@holdfast/lab/experiment';
import { checkModeTargets, checkRunRequest, planReplay, runSession } from '@holdfast/lab/experiment';
import { loadTasks, selectTasks } from '@holdfast/lab/experiment';
import { redact } from '@holdfast/lab/models';
import { loadRulebook } from '@holdfast/core/rules';
import { sandboxLander } from '@holdfast/lab/sandbox';
import type { Isolation } from '@holdfast/lab/sandbox';
import { ApiError } from './api-error.js';
import { limitTarget } from './call-limiter.js';
import { LiveRun } from './live-run.js';
import type { RunRegistry } from './live-run.js';
import { readSavedRun, runFilePath } from './run-files.js';
import type { ServerContext } from './server-context.js';

/** Everything a run needs, checked before anything starts. */
export interface PreparedRun {
  readonly config: RunConfig;
  readonly rulebook: Rulebook;
  readonly tasks: TaskInfo[];
  readonly targets: ExperimentTarget[];
  /** What the run file says of each target: for a queued run, whose workers hold the definitions and keys, from the config alone. */
  readonly targetInfos: TargetInfo[];
  readonly secrets: string[];
  readonly demo?: string;
  /** Why the replay's figures can differ from its recording's (planReplay's notes). */
  readonly notes?: readonly string[];
  readonly humanGate: boolean;
  /** Loop and agent modes: how their commands are confined, detected before the run file exists. */
  readonly isolation?: Isolation;
}

const TEMPERATURE = 0.7;

function describeSelectionIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : 'the selection'}: ${issue.message}`)
    .join('; ');
}

function parseSelection(body: unknown): RunSelection {
  const parsed = RunSelectionSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(400, 'E_SELECTION', `invalid run selection: ${describeSelectionIssues(parsed.error)}.`);
  return parsed.data;
}

/** A person's mistake in the selection (unknown target or task) is a 400 that lists the valid ones. */
function asBadSelection(error: unknown): never {
  if (error instanceof InputError) throw new ApiError(400, error.code, error.message, { cause: error });
  throw error;
}

function hasOwn(body: unknown, key: string): boolean {
  return typeof body === 'object' && body !== null && Object.prototype.hasOwnProperty.call(body, key);
}

/** The lab's planner refuses what the CLI refuses, in the same words. */
function refuseModeSettings(selection: RunSelection): void {
  try {
    checkRunRequest({
      mode: selection.mode,
      source: selection.replay !== undefined ? 'replay' : 'targets',
      sandbox: selection.sandbox,
      sessionLimits: selection.turnCap !== undefined || selection.sessionTimeoutSeconds !== undefined,
    });
  } catch (error) {
    asBadSelection(error);
  }
}

/**
 * No isolation, no run: the web app has no way to say "unsafe", so a run that executes commands
 * (a sandbox, loop or agent mode) is refused before a file exists. A queued run's sessions are
 * confined by the workers that take them. Returns what loop and agent modes are confined by.
 */
async function requireIsolation(selection: RunSelection, context: ServerContext): Promise<Isolation | undefined> {
  const sessions = selection.mode !== 'plan' && context.queue === undefined;
  if (!selection.sandbox && !sessions) return undefined;
  const { detectIsolation, isolationRefusal } = await import('@holdfast/lab/sandbox');
  const isolation = await detectIsolation('auto', { searchPath: context.env.PATH ?? process.env.PATH ?? '' });
  if (isolation.kind === 'none')
    throw new ApiError(
      409,
      'E_SANDBOX_ISOLATION',
      isolationRefusal(isolation).message.replace(
        / To run them unisolated anyway.*$/,
        ` (\`holdfast run ${selection.sandbox ? '--sandbox' : `--mode ${selection.mode}`} --unsafe-no-isolation\` in a terminal runs them unisolated.)`,
      ),
    );
  return sessions ? isolation : undefined;
}

/**
 * Validates a selection against the schema and against what exists (targets in the config or the
 * replayed run, tasks on disk or in the replayed run) and resolves it into a runnable run.
 * A replay answers from a saved run's recorded replies: no key, no network.
 */
export async function prepareRun(body: unknown, context: ServerContext): Promise<PreparedRun> {
  const selection = parseSelection(body);
  refuseModeSettings(selection);
  const isolation = await requireIsolation(selection, context);
  const base = {
    concurrency: selection.concurrency,
    approve: selection.humanGate ? ('http' as const) : ('auto' as const),
    approvalTimeoutMs: selection.approvalTimeoutSeconds * 1000,
    temperature: TEMPERATURE,
    sandbox: selection.sandbox,
    ...(selection.turnCap !== undefined ? { turnCap: selection.turnCap } : {}),
    ...(selection.sessionTimeoutSeconds !== undefined ? { sessionTimeoutMs: selection.sessionTimeoutSeconds * 1000 } : {}),
  };
  try {
    if (selection.replay !== undefined) {
      const { events } = await readSavedRun(context.runsDir, selection.replay);
      const replay = planReplay(events, selection.replay, {
        targets: selection.targets,
        tasks: selection.tasks,
        reps: hasOwn(body, 'reps') ? selection.reps : undefined,
        sandbox: selection.sandbox,
      });
      return {
        config: {
          ...base,
          targets: [...replay.targetIds],
          tasks: replay.tasks.map((task) => task.id),
          reps: replay.reps,
          replayOf: runFilePath(context.runsDir, selection.replay),
        },
        rulebook: replay.rulebook,
        tasks: replay.tasks,
        targets: replay.targets,
        targetInfos: replay.targets.map((target) => target.info),
        secrets: [],
        ...(replay.demo !== undefined ? { demo: replay.demo } : {}),
        ...(replay.notes.length > 0 ? { notes: replay.notes } : {}),
        humanGate: selection.humanGate,
      };
    }
    if (selection.targets === undefined) {
      throw new ApiError(400, 'E_SELECTION', 'choose at least one target, or a saved run to replay.');
    }
    const rulebook = await loadRulebook(context.rulebookPath);
    const tasks = selectTasks(await loadTasks(context.tasksDir, { rulebook }), selection.tasks);
    const config = {
      ...base,
      targets: selection.targets,
      tasks: tasks.map((task) => task.id),
      reps: selection.reps,
      ...(selection.mode !== 'plan' ? { mode: selection.mode } : {}),
    };
    // A queued run's targets are played, with their keys, by the workers.
    if (context.queue !== undefined)
      return {
        config,
        rulebook,
        tasks,
        targets: [],
        targetInfos: await configuredTargetInfos(selection.targets, context.cwd),
        secrets: [],
        humanGate: selection.humanGate,
      };
    const { targets, secrets } = await resolveConfiguredTargets(selection.targets, context.cwd, context.env);
    checkModeTargets(selection.mode, targets);
    return {
      config,
      rulebook,
      tasks,
      targets,
      targetInfos: targets.map((target) => target.info),
      secrets,
      humanGate: selection.humanGate,
      ...(isolation !== undefined ? { isolation } : {}),
    };
  } catch (error) {
    return asBadSelection(error);
  }
}

/**
 * Starts a prepared run in the background: its file is written under the runs folder, its events
 * go to the registry's live run (and so to every stream), and its commit gate answers over HTTP.
 */
export function startRun(prepared: PreparedRun, context: ServerContext, registry: RunRegistry): LiveRun {
  const runId = context.generateId();
  const name = `${runId}.jsonl`;
  const approvals = prepared.humanGate ? new PendingApprovals() : undefined;
  const queue = context.queue;
  const run = registry.add(
    new LiveRun({
      runId,
      name,
      token: context.generateToken(),
      controller: new AbortController(),
      ...(approvals !== undefined ? { approvals } : {}),
      ...(queue !== undefined ? { queued: true } : {}),
    }),
  );
  const session = {
    runId,
    out: runFilePath(context.runsDir, name),
    config: prepared.config,
    rulebook: prepared.rulebook,
    tasks: prepared.tasks,
    ...(approvals !== undefined ? { approver: approvals } : {}),
    // prepareRun refused a sandboxed run without isolation before anything was written.
    ...(prepared.config.sandbox
      ? { openLander: sandboxLander(prepared.config.sandboxMaxBytes !== undefined ? { maxBytes: prepared.config.sandboxMaxBytes } : {}) }
      : {}),
    ...(prepared.isolation !== undefined ? { sandbox: { isolation: prepared.isolation } } : {}),
    signal: run.controller.signal,
    ...(prepared.demo !== undefined ? { demo: prepared.demo } : {}),
    ...(prepared.notes !== undefined ? { notes: prepared.notes } : {}),
    secrets: prepared.secrets,
    now: context.now,
    ...(context.timers !== undefined ? { timers: context.timers } : {}),
    onEvent: (event: RunEvent) => run.push(event),
  };
  // Queued: the rounds go to `holdfast worker` processes; this server writes the file and reports their heartbeats.
  const played =
    queue !== undefined
      ? import('@holdfast/lab/scale').then(({ runQueuedSession }) =>
          runQueuedSession({ ...session, connection: queue, targets: prepared.targetInfos, onWorkerBeat: (beats) => run.reportWorkers(beats) }),
        )
      : runSession({
          ...session,
          targets: prepared.targets.map((target) => limitTarget(target, context.modelCalls)),
          ...(context.judgeReply !== undefined ? { judgeReply: context.judgeReply } : {}),
        });
  void played
    .catch((error: unknown) => {
      context.log(redact(`holdfast serve: run ${runId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, prepared.secrets));
    })
    .finally(() => run.finish());
  return run;
}
