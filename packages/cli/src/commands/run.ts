import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { RunConfig, RunEvent, Rulebook, TargetInfo, TaskInfo } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import type { JudgeLookup } from '@holdfast/lab/judge';
import type { OpenLander } from '@holdfast/lab/experiment';
import type { Isolation } from '@holdfast/lab/sandbox';

const KEEP_NEEDS_SANDBOX = '--keep-sandboxes needs a sandboxed run; the run being resumed was not run with --sandbox.';
const HELP = `Usage: holdfast run [options]

Runs the told/held experiment: every target × task × repetition is one round, played twice with
the same prompt: the told arm applies everything, the held arm enforces the rulebook.

Modes (--mode):
  plan   (default) one reply holds the whole action list; the held arm halts at the first violation
  loop   the model works through native tool calls (read, list, write, edit, delete, run a command,
         commit) in its own git repository, turn after turn; in the held arm a violating call is
         refused with the rule's reason and the model goes on. What landed is judged on the final
         repository and its commits; the repository's own npm test says whether the task got done.
         Needs openai-compatible or anthropic targets.
  agent  an agent harness (a target with provider claude-code, codex, gemini-cli, qwen-code, opencode,
         copilot-cli or agent) works on the ticket
         in its own throwaway git repository holding the task's files and AGENTS.md. Told: holdfast's
         hook only observes (judges and records every tool call, never blocks). Held: the same hook
         enforces, with the git pre-commit hook, as \`holdfast install\` sets them up. Measured from the
         hook's audit log and the repository at the end: calls that broke a rule, calls blocked,
         violations that landed (work tree and every commit), recovered/evaded, whether the repo's
         own \`npm test\` passes, turns, tokens, cost and wall time.

Where replies come from (one of):
  --targets a,b          configured targets (holdfast.config.yaml, keys from .env)
  --replay FILE          the replies recorded in an earlier run file (no key, no network)
  --replies FILE|demo    hand-written replies (\`demo\`: the shipped ones, runs/demo/replies.json in a
                         clone); the run is marked as a demo
  --resume FILE          finish the rounds missing from an interrupted run file, appending to it

Options:
  --mode plan|loop|agent how rounds are played (default plan; a resumed or replayed run keeps its own)
  --turn-cap N           loop mode: model turns per arm (default 30; a target's turnCap wins);
                         agent mode: default 50, a target's maxTurns wins when lower
  --session-timeout S    loop mode: seconds per arm (default 1200); agent mode: default 900, a
                         target's timeoutMs wins when lower
  --tasks all|id,id      tasks to run (default: all; see \`holdfast tasks\`)
  --tasks-dir DIR        the folder of task folders to run (default: the shipped tasks/); make one from
                         your own repository with \`holdfast tasks new\` or \`holdfast init\`
  --reps N               repetitions per target and task (default 1; a replay defaults to the recorded count and
                         is refused if asked for more than the file holds)
  --concurrency N        rounds in flight at once (default 3)
  --approve ask|auto|deny
                         the held arm's commit gate: ask at the terminal, approve or refuse every
                         commit automatically (default auto)
  --approval-timeout S   seconds before an unanswered approval is refused (default 90)
  --temperature T        sampling temperature (default 0.7)
  --rulebook FILE        rulebook (default: the shipped rulebooks/default.yaml; a replay uses the recorded one)
  --out FILE             run file to write (default runs/<run id>.jsonl)
  --sandbox              land each arm in its own throwaway git worktree of the task's repository:
                         real writes and commits, the allowlisted test command really runs, and each
                         arm records the diff of what landed. Commands run under bubblewrap: only the
                         repository writable, the toolchain read-only, a private /tmp, no network, no
                         other process, no inherited environment. Without bubblewrap the run is
                         refused (see \`holdfast targets\` for what this machine has)
  --unsafe-no-isolation  with --sandbox, --mode loop or --mode agent, run model-written commands even where bubblewrap cannot
                         isolate them: as you, with your files, keys and network. Said in red on every
                         run and recorded in the run file
  --node-modules DIR     with --sandbox, a node_modules folder installed for the task repositories:
                         snapshotted once per task and linked (read-only) into every arm (plan mode and
                         --mode loop; refused with --mode agent, which does not link one)
  --installed-in DIR     with --sandbox (plan mode), the repository the tasks were made from (\`tasks new
                         --from-commit\`): its installed node_modules/.venv/venv folders that git ignores are
                         bound read-only at the same paths into every arm's commands and acceptance check,
                         as \`tasks new\` binds them in its trial (instead of --node-modules)
  --keep-sandboxes DIR   with --sandbox or --mode agent, keep each arm's repository under DIR instead of removing it
                         (with --queue, --keep-sandboxes and --node-modules are paths on each worker's machine)
  --sandbox-max-bytes N  with --sandbox, --mode loop or agent, what each arm's work tree may hold (default 268435456,
                         256 MB): a write past it is refused, a command that leaves the tree past it ends the
                         arm, named "sandbox over its N MB cap" (a violation already landed still counts)
  --demo TEXT            mark the run file as a demo (the run-start event's \`demo\` field): for runs whose
                         agents or replies are scripted, not real models
  --no-judge             do not grade the rulebook's judge rules after each arm (grade later with
                         \`holdfast judge FILE\`); judge grades are advisory and never change a verdict
  --max-reply-bytes N    the size cap of one model answer (default 1000000, over every target's
                         maxReplyBytes): a bigger answer is cut off there and the arm is unparseable, too large
  --json                 print the totals as JSON instead of a table
  -h, --help             this help

Scale out (see \`holdfast worker --help\`):
  --queue redis://HOST:PORT
                         queue every round on Redis (BullMQ) instead of playing them here: this process
                         writes the run file and ends when every round has a result; \`holdfast worker\`
                         processes on any machine play them with their own targets, keys and sandboxes.
                         With --resume, re-attaches to the run's queued rounds and their results
  --target-concurrency N rounds of one target in flight at once across all workers
  --target-rate N/S      at most N rounds of one target started per S seconds across all workers

Exit codes: 0 the run completed (every arm measured), 2 bad input (refused before anything runs: the same
request is refused alike by the web app), 3 the run failed: an arm ended in error, or a target failed (every one of its
model calls errored: an outage is not a result; the reason is printed), 4 the disk is full or the run file is not
writable (free space or fix permissions, then --resume: nothing finished is lost), 130 interrupted (resume with --resume).`;

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Red unless the person turned colour off (NO_COLOR): the unsafe warning must not blend in. */
function red(io: CliIo, text: string): string {
  return io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '' ? text : `\u001b[1;31m${text}\u001b[0m`;
}

function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomBytes(3).toString('hex')}`;
}

async function readEvents(path: string, label: string): Promise<RunEvent[]> {
  const { futureVersionError, readRunFile } = await import('@holdfast/lab/store');
  const contents = await readRunFile(path);
  if (!contents.events.some((event) => event.type === 'run-start')) {
    const future = await futureVersionError(path);
    if (future !== undefined) throw future;
  }
  if (contents.events.length === 0) {
    const why = contents.problems[0] ? `: line ${contents.problems[0].line}: ${contents.problems[0].message}` : '';
    throw new InputError('E_RUN_FILE', `${label} ${path} has no readable events${why}.`);
  }
  return contents.events;
}

/** `--target-rate 10/60`: ten rounds a minute. */
function targetLimits(concurrency: string | undefined, rate: string | undefined): { concurrency?: number; rate?: { max: number; durationMs: number } } {
  const parsedRate = rate === undefined ? undefined : /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(rate.trim());
  if (rate !== undefined && (parsedRate === null || parsedRate === undefined || Number(parsedRate[1]) < 1 || Number(parsedRate[2]) <= 0)) {
    throw new InputError('E_ARGS', `--target-rate must be ROUNDS/SECONDS, e.g. 10/60 for ten rounds a minute, got "${rate}".`);
  }
  return {
    ...(concurrency !== undefined ? { concurrency: integerFlag('run', 'target-concurrency', concurrency, 1, 1, 10_000) } : {}),
    ...(parsedRate ? { rate: { max: Number(parsedRate[1]), durationMs: Math.round(Number(parsedRate[2]) * 1000) } } : {}),
  };
}

const RUN_OPTIONS = {
  targets: { type: 'string' },
  tasks: { type: 'string' },
  'tasks-dir': { type: 'string' },
  reps: { type: 'string' },
  concurrency: { type: 'string' },
  approve: { type: 'string' },
  'approval-timeout': { type: 'string' },
  temperature: { type: 'string' },
  rulebook: { type: 'string' },
  out: { type: 'string' },
  replay: { type: 'string' },
  replies: { type: 'string' },
  resume: { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  mode: { type: 'string' },
  demo: { type: 'string' },
  'turn-cap': { type: 'string' },
  'session-timeout': { type: 'string' },
  'unsafe-no-isolation': { type: 'boolean', default: false },
  'node-modules': { type: 'string' },
  'installed-in': { type: 'string' },
  'keep-sandboxes': { type: 'string' },
  'sandbox-max-bytes': { type: 'string' },
  'no-judge': { type: 'boolean', default: false },
  'max-reply-bytes': { type: 'string' },
  json: { type: 'boolean', default: false },
  queue: { type: 'string' },
  'target-concurrency': { type: 'string' },
  'target-rate': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type RunFlags = ReturnType<typeof parseCommandArgs<typeof RUN_OPTIONS>>['values'];
type Experiment = typeof import('@holdfast/lab/experiment');
type ExperimentTargets = Awaited<ReturnType<Experiment['resolveConfiguredTargets']>>['targets'];
type QueueConnection = ReturnType<typeof import('@holdfast/lab/scale').parseQueueUrl>;

/** What the flags say before any file is read: each value checked, each combination that cannot work refused. */
interface RunSettings {
  readonly approve: 'ask' | 'auto' | 'deny';
  readonly mode: 'plan' | 'loop' | 'agent';
  readonly turnCap: number | undefined;
  readonly sessionSeconds: number | undefined;
  readonly replyLimits: { readonly maxReplyBytes: number | undefined };
  readonly approvalSeconds: number;
  readonly temperature: number;
  readonly sandboxMaxBytes: number | undefined;
}

function runSettings(values: RunFlags): RunSettings {
  const sources = [values.replay, values.replies, values.resume].filter((value) => value !== undefined);
  if (sources.length > 1) throw new InputError('E_ARGS', 'use only one of --replay, --replies and --resume.');
  if (values['tasks-dir'] !== undefined && (values.replay !== undefined || values.resume !== undefined)) {
    throw new InputError('E_ARGS', '--tasks-dir picks the tasks of a new run; a replayed or resumed run uses the tasks it recorded.');
  }
  const approve = values.approve ?? 'auto';
  if (approve !== 'ask' && approve !== 'auto' && approve !== 'deny') {
    throw new InputError('E_ARGS', `--approve must be ask, auto or deny, got "${approve}".`);
  }
  const mode = values.mode ?? 'plan';
  if (mode !== 'plan' && mode !== 'loop' && mode !== 'agent') throw new InputError('E_ARGS', `--mode must be plan, loop or agent, got "${mode}".`);
  const turnCap = values['turn-cap'] === undefined ? undefined : integerFlag('run', 'turn-cap', values['turn-cap'], 30, 1, 1000);
  const sessionSeconds =
    values['session-timeout'] === undefined ? undefined : integerFlag('run', 'session-timeout', values['session-timeout'], 1200, 1, 86_400);
  const replyLimits = {
    maxReplyBytes:
      values['max-reply-bytes'] === undefined ? undefined : integerFlag('run', 'max-reply-bytes', values['max-reply-bytes'], 1_000_000, 1024, 1_000_000_000),
  };
  const approvalSeconds = integerFlag('run', 'approval-timeout', values['approval-timeout'], 90, 1, 86_400);
  const temperature = values.temperature === undefined ? 0.7 : Number(values.temperature);
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw new InputError('E_ARGS', `--temperature must be a number from 0 to 2, got "${values.temperature}".`);
  }
  const sandboxMaxBytes = sandboxMaxBytesFlag(values, mode);
  return { approve, mode, turnCap, sessionSeconds, replyLimits, approvalSeconds, temperature, sandboxMaxBytes };
}

/** `--sandbox-max-bytes`: only where an arm has a work tree of its own (plan --sandbox, loop and agent mode). */
function sandboxMaxBytesFlag(values: RunFlags, mode: string): number | undefined {
  const given = values['sandbox-max-bytes'];
  if (given === undefined) return undefined;
  const sandboxed = values.sandbox || values['keep-sandboxes'] !== undefined || values['node-modules'] !== undefined;
  if (mode === 'plan' && !sandboxed) throw new InputError('E_ARGS', '--sandbox-max-bytes needs --sandbox, --mode loop or --mode agent.');
  return integerFlag('run', 'sandbox-max-bytes', given, 256 * 1024 * 1024, 1024, Number.MAX_SAFE_INTEGER);
}

/** The run to play: new, or the rest of a resumed one. */
interface RunPlan {
  readonly rulebook: Rulebook;
  readonly tasks: TaskInfo[];
  readonly config: RunConfig;
  readonly runId: string;
  readonly previous?: RunEvent[];
  demo?: string | undefined;
  /** Why the figures can differ from the recording's (a replay without its recording's sandbox): in run-start and after the headline. */
  readonly notes?: readonly string[] | undefined;
  readonly secrets: string[];
  /** The targets played here; a queued run has only what the run file says of them (the workers hold the rest). */
  readonly targets?: ExperimentTargets;
  readonly targetInfos?: TargetInfo[];
  readonly out: string | undefined;
}

interface PlanContext {
  readonly values: RunFlags;
  readonly settings: RunSettings;
  readonly io: CliIo;
  readonly experiment: Experiment;
  readonly queue: QueueConnection | undefined;
  readonly now: Date;
}

async function recordedStart(events: RunEvent[], path: string) {
  const { checkRecordedRulebook } = await import('@holdfast/core/rules');
  const start = events.find((event) => event.type === 'run-start');
  if (start === undefined || start.type !== 'run-start') {
    throw new InputError('E_RUN_FILE', `${path} has no run-start event, so its targets and tasks are unknown.`);
  }
  return { ...start, rulebook: checkRecordedRulebook(start.rulebook, path) };
}

/** Whether every planned round is finished, read one round at a time (the plan is never held whole). */
function everyRoundIn(rounds: Iterable<{ readonly roundId: string }>, finished: ReadonlySet<string>): boolean {
  for (const round of rounds) if (!finished.has(round.roundId)) return false;
  return true;
}

/** The rest of a resumed run, or `complete` when every planned round is in the file and the run has ended. */
async function resumedPlan({ values, io, experiment, queue, settings }: PlanContext, resume: string): Promise<RunPlan | 'complete'> {
  const store = await import('@holdfast/lab/store');
  const path = resolve(io.cwd, resume);
  // A file another process is writing is refused before anything else is read for it.
  store.refuseIfLocked(path);
  const previous = await readEvents(path, 'the run file to resume,');
  const start = await recordedStart(previous, path);
  if (values.out !== undefined && resolve(io.cwd, values.out) !== path) {
    throw new InputError('E_ARGS', '--resume appends to the file it resumes; leave out --out.');
  }
  const config = start.config;
  const finished = experiment.completedRounds(store.reduceRunEvents(previous));
  if (previous.at(-1)?.type === 'run-end' && everyRoundIn(experiment.roundsInOrder(config), finished)) {
    // A flag this run cannot honour is bad input even when there is nothing left to resume.
    if (values['keep-sandboxes'] !== undefined && !config.sandbox && config.mode !== 'agent') throw new InputError('E_ARGS', KEEP_NEEDS_SANDBOX);
    writeLine(io.stderr, `${path} is complete: every planned round has both arms and the run has ended. Nothing to resume; the file is unchanged.`);
    return 'complete';
  }
  if (values.mode !== undefined && values.mode !== (config.mode ?? 'plan')) {
    throw new InputError('E_ARGS', `${path} was run in ${config.mode ?? 'plan'} mode; resume it without --mode.`);
  }
  const plan = { out: path, runId: start.runId, rulebook: start.rulebook, tasks: start.tasks, config, demo: start.demo, notes: start.notes, previous };
  const scripted = async (file?: string) => {
    const replies = await experiment.loadDemoReplies(file);
    const known = [...new Set(replies.replies.map((reply) => reply.target))];
    return experiment.resolveScriptedTargets(config.targets, known, experiment.demoReplyLookup(replies));
  };
  if (config.replayOf !== undefined) {
    return { ...plan, secrets: [], targets: experiment.resolveReplayTargets(config.targets, await readEvents(config.replayOf, 'the replayed run file')) };
  }
  if (config.repliesOf !== undefined) return { ...plan, secrets: [], targets: await scripted(experiment.demoRepliesFileOf(io.cwd, config.repliesOf)) };
  if (start.demo !== undefined && start.targets.every((target) => target.provider === 'replay')) return { ...plan, secrets: [], targets: await scripted() };
  if (queue !== undefined) return { ...plan, secrets: [], targetInfos: start.targets };
  const { targets, secrets } = await experiment.resolveConfiguredTargets(config.targets, io.cwd, io.env, undefined, settings.replyLimits);
  return { ...plan, targets, secrets };
}

/** Where a new run's rulebook, tasks, targets and reps come from: a replayed run file, a replies file, or the flags. */
async function recordedSource({ values, io, experiment }: PlanContext) {
  if (values.replay !== undefined) {
    const path = resolve(io.cwd, values.replay);
    const events = await readEvents(path, 'the run file to replay,');
    const replay = experiment.planReplay(events, path, {
      targets: list(values.targets),
      tasks: values.tasks === undefined || values.tasks === 'all' ? 'all' : list(values.tasks)!,
      reps: values.reps === undefined ? undefined : integerFlag('run', 'reps', values.reps, 1, 1, 1000),
      sandbox: values.sandbox || values['keep-sandboxes'] !== undefined || values['node-modules'] !== undefined,
    });
    return { replay, demo: replay.demo, scriptedTargets: [] as string[] };
  }
  if (values.replies !== undefined) {
    const replies = await experiment.loadDemoReplies(experiment.demoRepliesFileOf(io.cwd, values.replies));
    return {
      lookup: experiment.demoReplyLookup(replies),
      scriptedTargets: [...new Set(replies.replies.map((reply) => reply.target))],
      scriptedReps: Math.max(...replies.replies.map((reply) => reply.rep)) + 1,
      demo: replies.demo,
    };
  }
  return { scriptedTargets: [] as string[] };
}

async function newPlan(context: PlanContext): Promise<RunPlan> {
  const { values, io, experiment, queue, settings } = context;
  const { loadRulebook } = await import('@holdfast/core/rules');
  const source = await recordedSource(context);
  const { replay } = source;
  const rulebook = values.rulebook !== undefined ? await loadRulebook(resolve(io.cwd, values.rulebook)) : (replay?.rulebook ?? (await loadRulebook()));
  const tasks =
    replay?.tasks ??
    experiment.selectTasks(
      await experiment.loadTasks(values['tasks-dir'] === undefined ? undefined : resolve(io.cwd, values['tasks-dir']), { rulebook }),
      values.tasks === undefined || values.tasks === 'all' ? 'all' : list(values.tasks)!,
    );
  const targetIds = replay?.targetIds ?? list(values.targets) ?? (source.scriptedTargets.length > 0 ? source.scriptedTargets : undefined);
  if (targetIds === undefined || targetIds.length === 0) {
    throw new InputError(
      'E_ARGS',
      'say which targets to run with --targets a,b (see `holdfast targets`), use --replay FILE, or play the shipped demo with --replies demo.',
    );
  }
  const reps = replay?.reps ?? integerFlag('run', 'reps', values.reps, source.scriptedReps ?? 1, 1, 1000);
  const concurrency = integerFlag('run', 'concurrency', values.concurrency, 3, 1, 64);
  let targets: ExperimentTargets | undefined;
  let targetInfos: TargetInfo[] | undefined;
  let secrets: string[] = [];
  if (replay !== undefined) targets = replay.targets;
  else if (source.lookup !== undefined) targets = experiment.resolveScriptedTargets(targetIds, source.scriptedTargets, source.lookup);
  else if (queue !== undefined) targetInfos = await experiment.configuredTargetInfos(targetIds, io.cwd);
  else ({ targets, secrets } = await experiment.resolveConfiguredTargets(targetIds, io.cwd, io.env, undefined, settings.replyLimits));
  const { mode } = settings;
  const config: RunConfig = {
    targets: [...targetIds],
    tasks: tasks.map((task) => task.id),
    reps,
    concurrency,
    approve: settings.approve,
    approvalTimeoutMs: settings.approvalSeconds * 1000,
    temperature: settings.temperature,
    sandbox: mode !== 'agent' && (values.sandbox || values['keep-sandboxes'] !== undefined || values['node-modules'] !== undefined),
    ...(values['unsafe-no-isolation'] ? { unsafeNoIsolation: true } : {}),
    ...(values.replay !== undefined ? { replayOf: resolve(io.cwd, values.replay) } : {}),
    // The shipped replies are recorded by their name, not by where this machine keeps them: a run file made
    // with them (runs/example.jsonl) resumes on any machine.
    ...(values.replies !== undefined
      ? { repliesOf: values.replies === experiment.SHIPPED_DEMO_REPLIES ? values.replies : experiment.demoRepliesFileOf(io.cwd, values.replies) }
      : {}),
    ...(mode !== 'plan' ? { mode } : {}),
    ...(settings.turnCap !== undefined ? { turnCap: settings.turnCap } : {}),
    ...(settings.sessionSeconds !== undefined ? { sessionTimeoutMs: settings.sessionSeconds * 1000 } : {}),
    ...(settings.sandboxMaxBytes !== undefined ? { sandboxMaxBytes: settings.sandboxMaxBytes } : {}),
  };
  if (targets !== undefined) experiment.checkModeTargets(mode, targets);
  const out = values.out !== undefined ? resolve(io.cwd, values.out) : undefined;
  return {
    rulebook,
    tasks,
    config,
    runId: newRunId(context.now),
    demo: source.demo,
    notes: replay?.notes,
    secrets,
    ...(targets !== undefined ? { targets } : {}),
    ...(targetInfos !== undefined ? { targetInfos } : {}),
    out,
  };
}

/** Where sandboxes are kept and which node_modules they get, refused where the run cannot use them. */
function sandboxFolders(values: RunFlags, io: CliIo, config: RunConfig, queue: QueueConnection | undefined) {
  const keepDir = values['keep-sandboxes'] === undefined ? undefined : resolve(io.cwd, values['keep-sandboxes']);
  const agentMode = config.mode === 'agent';
  if (keepDir !== undefined && config.mode === 'loop') {
    throw new InputError(
      'E_ARGS',
      '--keep-sandboxes keeps plan-mode sandboxes and agent-mode repositories; loop-mode repositories are removed when their arm ends (the run file keeps their diff).',
    );
  }
  if (keepDir !== undefined && !config.sandbox && !agentMode) {
    throw new InputError('E_ARGS', KEEP_NEEDS_SANDBOX);
  }
  if (values['unsafe-no-isolation'] && !config.sandbox && (config.mode ?? 'plan') === 'plan')
    throw new InputError(
      'E_ARGS',
      '--unsafe-no-isolation is for runs that execute commands (--sandbox, --mode loop or --mode agent); without one no command runs.',
    );
  const nodeModules = values['node-modules'] === undefined ? undefined : resolve(io.cwd, values['node-modules']);
  if (nodeModules !== undefined && agentMode)
    throw new InputError(
      'E_ARGS',
      '--node-modules links an installed node_modules into plan-mode sandboxes and loop-mode repositories; agent mode does not give one to its repositories, so it would be left out unseen and tests that import packages would fail. Run such tasks in plan mode with --sandbox, or in loop mode.',
    );
  // A queued run's folder is on the workers' machines: each worker checks it before it plays a round.
  if (nodeModules !== undefined && queue === undefined && !existsSync(nodeModules))
    throw new InputError('E_ARGS', `--node-modules ${nodeModules} does not exist; pass a node_modules folder installed for the task repositories.`);
  const installedIn = values['installed-in'] === undefined ? undefined : resolve(io.cwd, values['installed-in']);
  if (installedIn !== undefined && (!values.sandbox || (config.mode ?? 'plan') !== 'plan' || queue !== undefined))
    throw new InputError(
      'E_ARGS',
      "--installed-in binds a repository's installed dependency folders into plan-mode sandboxes on this machine; give --sandbox, without --mode loop, --mode agent or --queue.",
    );
  if (installedIn !== undefined && nodeModules !== undefined)
    throw new InputError('E_ARGS', '--installed-in and --node-modules both give the arms their dependencies; give one of them.');
  if (installedIn !== undefined && !existsSync(installedIn))
    throw new InputError('E_ARGS', `--installed-in ${installedIn} does not exist; pass the repository the tasks were made from (\`tasks new --repo\`).`);
  return { keepDir, nodeModules, installedIn };
}

/**
 * Before the run file exists: no isolation and no explicit say-so means no run. A queued run's commands
 * run on the workers: each checks its own isolation before it takes such a round.
 */
async function commandIsolation(
  io: CliIo,
  config: RunConfig,
  unsafe: boolean,
  folders: { keepDir: string | undefined; nodeModules: string | undefined; installedIn: string | undefined },
): Promise<{ isolation?: Isolation; openLander?: OpenLander }> {
  const sandbox = await import('@holdfast/lab/sandbox');
  let isolation = await sandbox.detectIsolation('auto', { searchPath: io.env.PATH ?? process.env.PATH ?? '' });
  if (isolation.kind === 'none' && !unsafe) throw new InputError('E_SANDBOX_ISOLATION', sandbox.isolationRefusal(isolation).message);
  if (isolation.kind === 'none') {
    isolation = { kind: 'none', detail: `${isolation.detail}; --unsafe-no-isolation: commands ran as you, with your files, keys and network` };
  }
  if (!config.sandbox || config.mode === 'agent') return { isolation };
  const { keepDir, nodeModules, installedIn } = folders;
  const openLander = sandbox.sandboxLander({
    isolation,
    allowUnisolated: unsafe,
    ...(config.sandboxMaxBytes !== undefined ? { maxBytes: config.sandboxMaxBytes } : {}),
    ...(keepDir !== undefined ? { keepDir } : {}),
    ...(nodeModules !== undefined ? { nodeModules: () => nodeModules } : {}),
    ...(installedIn !== undefined ? { installedIn: () => installedIn } : {}),
  });
  return { isolation, openLander };
}

/** Judge rules are advisory: a judge that cannot grade is a warning and a judge-error, never a refused run. */
async function judgesFor(io: CliIo, rulebook: Rulebook, secrets: string[]): Promise<{ judges: JudgeLookup }> {
  const { resolveJudgeTargets } = await import('@holdfast/lab/judge');
  const judgeTargets = await resolveJudgeTargets(rulebook, io.cwd, io.env);
  for (const problem of judgeTargets.problems.values()) writeLine(io.stderr, `warning: ${problem}; its judge rules will be recorded as judge-error.`);
  secrets.push(...judgeTargets.secrets);
  return { judges: judgeTargets.judges };
}

/** The lines that say what is about to run, where its file goes and how its commands are confined. */
function announceRun(
  io: CliIo,
  plan: RunPlan,
  out: string,
  planned: number,
  keepDir: string | undefined,
  isolation: Isolation | undefined,
  queued: boolean,
): void {
  const { config } = plan;
  const mode = config.mode ?? 'plan';
  const kept = keepDir !== undefined ? `, kept under ${keepDir}` : '';
  if (plan.demo !== undefined) writeLine(io.stderr, `Note: ${plan.demo}`);
  for (const note of plan.notes ?? []) writeLine(io.stderr, `Note: ${note}`);
  writeLine(io.stderr, `Run ${plan.runId} (${mode} mode): ${planned} rounds → ${out}`);
  if (mode === 'loop') writeLine(io.stderr, 'Loop mode: each arm works through tool calls in its own git repository.');
  if (config.sandbox && mode === 'plan') writeLine(io.stderr, `Sandboxed: each arm lands in its own git worktree${kept}.`);
  if (mode === 'agent') writeLine(io.stderr, `Agent mode: each arm's harness works in its own git repository${kept}.`);
  const runsCommands = config.sandbox || mode !== 'plan';
  if (runsCommands && queued)
    writeLine(io.stderr, 'Commands run on the workers: only workers with isolation (or started with --unsafe-no-isolation) take these rounds.');
  else if (runsCommands) {
    if (isolation?.kind === 'bubblewrap') writeLine(io.stderr, `Isolation: ${isolation.detail}.`);
    else
      writeLine(
        io.stderr,
        red(io, `UNSAFE: NO ISOLATION. ${isolation?.detail ?? 'none'}. Model-written commands can read your files and keys and reach the network.`),
      );
  }
}

/** Ctrl-C or SIGTERM (a CI timeout, `kill`) ends the run with a valid file and its sandboxes removed; a second Ctrl-C quits at once. */
function onInterrupts(io: CliIo): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    writeLine(io.stderr, '\nInterrupted: finishing the file (Ctrl-C again to quit at once)…');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
    },
  };
}

type RunResult = Awaited<ReturnType<Experiment['runSession']>>;

/** Prints the totals and the headline (or the JSON document) and turns the outcome into the exit code. */
async function reportResult(io: CliIo, values: RunFlags, runId: string, result: RunResult): Promise<number> {
  const [store, report] = await Promise.all([import('@holdfast/lab/store'), import('@holdfast/lab/report')]);
  const totals = result.state.totals ?? store.computeTotals(result.state);
  const failedTargets = result.outcome.failedTargets ?? [];
  const headline = report.headlines(totals);
  const definitions = { ...report.HEADLINE_DEFINITIONS, ...report.RATE_DEFINITIONS };
  const notes = result.state.start?.notes ?? [];
  if (values.json)
    writeLine(
      io.stdout,
      JSON.stringify({ runId, file: result.path, status: result.outcome.status, failedTargets, headline, notes, definitions, totals }, null, 2),
    );
  else {
    // The answer first; the table and the definitions of its figures (printed once, at its end) after it.
    writeLine(
      io.stdout,
      report.formatHeadlines(totals, (line) => red(io, line)),
    );
    // Why these figures can differ from the recording's, beside them (a replay without its recording's sandbox).
    for (const note of notes) writeLine(io.stdout, `Note: ${note}`);
    writeLine(io.stdout, `\n${report.formatTotalsTable(totals)}`);
    writeLine(io.stdout, `\nRun file: ${result.path} (${result.outcome.status})`);
  }
  for (const failed of failedTargets) writeLine(io.stderr, `Target ${failed.target} failed: ${failed.reason}`);
  if (result.outcome.status === 'completed' && failedTargets.length > 0) return EXIT.internal;
  if (result.outcome.status === 'completed') return EXIT.ok;
  if (result.outcome.status === 'interrupted') {
    writeLine(io.stderr, `Resume with: holdfast run --resume ${result.path}`);
    return EXIT.interrupted;
  }
  writeLine(io.stderr, `The run failed: ${result.outcome.reason ?? 'unknown reason'}`);
  return EXIT.internal;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs('run', args, RUN_OPTIONS);
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  const settings = runSettings(values);
  const scale = values.queue !== undefined ? await import('@holdfast/lab/scale') : undefined;
  const queue = values.queue !== undefined ? scale!.parseQueueUrl(values.queue) : undefined;
  if (queue === undefined && (values['target-concurrency'] !== undefined || values['target-rate'] !== undefined)) {
    throw new InputError('E_ARGS', '--target-concurrency and --target-rate limit rounds across workers; they need --queue.');
  }
  const limits = queue === undefined ? undefined : targetLimits(values['target-concurrency'], values['target-rate']);
  const [experiment, store, report] = await Promise.all([import('@holdfast/lab/experiment'), import('@holdfast/lab/store'), import('@holdfast/lab/report')]);
  // The lab's planner, which the web app asks too: the same request is refused in the same words.
  experiment.checkRunRequest({
    mode: settings.mode,
    source: values.replay !== undefined ? 'replay' : values.replies !== undefined ? 'replies' : values.resume !== undefined ? 'resume' : 'targets',
    sandbox: values.sandbox,
    sessionLimits: values['turn-cap'] !== undefined || values['session-timeout'] !== undefined,
  });
  const context: PlanContext = { values, settings, io, experiment, queue, now: new Date() };
  const resumed = values.resume !== undefined ? await resumedPlan(context, values.resume) : undefined;
  if (resumed === 'complete') return EXIT.ok;
  const plan = resumed ?? (await newPlan(context));
  const { config, rulebook, tasks, runId, previous, secrets } = plan;
  if (values.demo !== undefined) {
    if (values.resume !== undefined) throw new InputError('E_ARGS', '--demo labels a new run; a resumed run keeps the label it was started with.');
    if (values.demo.trim() === '') throw new InputError('E_ARGS', '--demo needs a sentence saying what is scripted, e.g. --demo "Scripted agents, no model".');
    plan.demo = values.demo.trim();
  }
  const { demo, notes } = plan;
  const out = plan.out ?? join(io.cwd, 'runs', `${runId}.jsonl`);
  if (previous === undefined && existsSync(out)) {
    throw new InputError('E_OUT_EXISTS', `${out} already exists; pick another --out, delete it, or finish it with --resume ${out}.`);
  }
  const folders = sandboxFolders(values, io, config, queue);
  const { keepDir, nodeModules } = folders;
  const unsafe = values['unsafe-no-isolation'];
  const runsCommands = config.sandbox || (config.mode ?? 'plan') !== 'plan';
  const { isolation, openLander } = runsCommands && queue === undefined ? await commandIsolation(io, config, unsafe, folders) : {};
  // A queued run's judges are the workers' own (their config, their keys).
  const judge = (rulebook.judgeRules ?? []).length > 0 && !values['no-judge'] && queue === undefined ? await judgesFor(io, rulebook, secrets) : undefined;

  const terminal = config.approve === 'ask' ? (await import('../terminal-approver.js')).terminalApprover(io.stdin, io.stderr) : undefined;
  const approver = terminal !== undefined ? terminal : config.approve === 'deny' ? experiment.policyApprover('refused') : experiment.policyApprover('approved');
  const interrupts = onInterrupts(io);
  const { createProgress } = await import('../progress.js');
  const planned = config.reps * config.tasks.length * config.targets.length;
  const alreadyDone = previous === undefined ? 0 : experiment.completedRounds(store.reduceRunEvents(previous)).size;
  const progress = createProgress(io.stderr, planned, alreadyDone);
  announceRun(io, plan, out, planned, keepDir, isolation, queue !== undefined);
  const common = {
    runId,
    out,
    config,
    rulebook,
    tasks,
    approver,
    signal: interrupts.signal,
    secrets,
    ...(demo !== undefined ? { demo } : {}),
    ...(notes !== undefined && notes.length > 0 ? { notes } : {}),
    ...(previous !== undefined ? { previous } : {}),
  };
  let result: RunResult;
  try {
    if (queue !== undefined) {
      const { queuedRun } = await import('../queued-run.js');
      result = await queuedRun(io, {
        ...common,
        connection: queue,
        targets: plan.targetInfos ?? (plan.targets ?? []).map((target) => target.info),
        ...(limits !== undefined ? { limits } : {}),
        // Paths on the workers' machines: the same folder there as here (or a shared mount).
        play: { judge: !values['no-judge'], ...(keepDir !== undefined ? { keepDir } : {}), ...(nodeModules !== undefined ? { nodeModules } : {}) },
        onRoundEnd: (round, results, worker) => progress.roundEnded(report.roundLabel(round), results, worker),
      });
    } else
      result = await experiment.runSession({
        ...common,
        targets: plan.targets ?? [],
        ...(runsCommands
          ? {
              sandbox: {
                ...(isolation !== undefined ? { isolation } : {}),
                allowUnisolated: unsafe,
                ...(nodeModules !== undefined ? { nodeModules: () => nodeModules } : {}),
              },
            }
          : {}),
        ...(openLander !== undefined ? { openLander } : {}),
        ...(config.mode === 'agent' && keepDir !== undefined ? { agent: { keepDir } } : {}),
        onRoundEnd: (round, results) => progress.roundEnded(report.roundLabel(round), results),
        ...(judge !== undefined ? { judge } : {}),
      });
  } finally {
    interrupts.release();
    terminal?.close();
    progress.finish();
  }
  if (isolation?.kind === 'none') writeLine(io.stderr, red(io, 'UNSAFE: this run executed model-written commands without isolation (--unsafe-no-isolation).'));
  return reportResult(io, values, runId, result);
}
