import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Rulebook } from '@holdfast/core/contract';
import type { ExperimentTarget } from '@holdfast/lab/experiment';
import type { JudgeLookup } from '@holdfast/lab/judge';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast worker --queue redis://HOST:PORT [options]

Plays the rounds that \`holdfast run --queue\` put on the queue, with this machine's targets, keys,
agent binaries and sandboxes, until stopped (Ctrl-C lets the rounds in flight finish). Start as many
as you like, on any machine that reaches the Redis server. A worker takes only rounds it can play:
rounds of the targets it has, and rounds that run commands (--sandbox, loop and agent modes) only
where bubblewrap isolates them (or with --unsafe-no-isolation).

Where targets come from (one of):
  --targets a,b          configured targets (holdfast.config.yaml here, keys from .env here);
                         default: every configured target whose key or agent binary is present
  --replies FILE|demo    the targets of a hand-written replies file (demos, tests, benches; demo: the shipped one)
  --replay FILE          the targets recorded in a run file, replaying their replies

Options:
  --queue redis://HOST:PORT  the coordinator's queue (required)
  --concurrency N        rounds in flight per target queue (default 1)
  --stall-timeout-ms N   a round whose worker stops answering for this long (killed, frozen, cut
                         off) goes back to the queue and is played elsewhere (default 30000)
  --reply-delay-ms N     with --replies or --replay: wait N ms before each reply (a scripted model
                         with fixed latency, for benches)
  --id NAME              this worker's name in the run file and the coordinator's progress
                         (default HOST-PID)
  --unsafe-no-isolation  take command-running rounds without isolation: as you, with your files,
                         keys and network
  -h, --help             this help

Exit codes: 0 stopped cleanly, 2 bad input, 3 the worker failed.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs('worker', args, {
    queue: { type: 'string' },
    targets: { type: 'string' },
    replies: { type: 'string' },
    replay: { type: 'string' },
    concurrency: { type: 'string' },
    'stall-timeout-ms': { type: 'string' },
    'reply-delay-ms': { type: 'string' },
    id: { type: 'string' },
    'unsafe-no-isolation': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (values.queue === undefined)
    throw new InputError('E_ARGS', 'holdfast worker: --queue redis://HOST:PORT is required (the address the coordinator was given).');
  if ([values.targets, values.replies, values.replay].filter((value) => value !== undefined).length > 1) {
    throw new InputError('E_ARGS', 'holdfast worker: use only one of --targets, --replies and --replay.');
  }
  const replyDelayMs = integerFlag('worker', 'reply-delay-ms', values['reply-delay-ms'], 0, 0, 600_000);
  if (replyDelayMs > 0 && values.replies === undefined && values.replay === undefined) {
    throw new InputError('E_ARGS', 'holdfast worker: --reply-delay-ms slows scripted replies only; add --replies FILE or --replay FILE.');
  }
  const concurrency = integerFlag('worker', 'concurrency', values.concurrency, 1, 1, 64);
  const stallTimeoutMs = integerFlag('worker', 'stall-timeout-ms', values['stall-timeout-ms'], 30_000, 200, 3_600_000);
  const workerId = values.id ?? `${hostname()}-${process.pid}`;
  const [scale, sandbox] = await Promise.all([import('@holdfast/lab/scale'), import('@holdfast/lab/sandbox')]);
  const connection = scale.parseQueueUrl(values.queue);
  const isolation = await sandbox.detectIsolation('auto', { searchPath: io.env.PATH ?? process.env.PATH ?? '' });
  /** Every key this worker's targets and judges hold, filled as they are resolved: scrubbed from whatever leaves the machine. */
  const secrets: string[] = [];

  const targets = (pauseTarget: (targetId: string, ms: number) => void) => workerTargets(values, io, replyDelayMs, secrets, pauseTarget);
  const judgesFor = judgeResolver(io, secrets);

  const worker = await scale.startRoundWorker({
    connection,
    workerId,
    targets,
    isolation,
    allowUnisolated: values['unsafe-no-isolation'],
    concurrency,
    stallTimeoutMs,
    get secrets() {
      return secrets;
    },
    judges: judgesFor,
    onRound: ({ phase, roundId, attempt, outcome }) => {
      const tries = attempt > 1 ? ` (try ${attempt})` : '';
      if (phase === 'start') writeLine(io.stderr, `start ${roundId}${tries}`);
      else writeLine(io.stderr, `done ${roundId}${tries}: told ${outcome?.told.verdict}, held ${outcome?.held.verdict}`);
    },
    onError: (error) => writeLine(io.stderr, `queue error: ${error.message}`),
  });
  if (worker.queues.length === 0) {
    await worker.close();
    throw new InputError('E_NO_TARGETS', 'holdfast worker: this machine can play no target (no key, no agent binary); see `holdfast targets`.');
  }
  if (isolation.kind === 'none' && !values['unsafe-no-isolation'])
    writeLine(io.stderr, `No isolation here (${isolation.detail}): taking plan-mode rounds without --sandbox only.`);
  // The line tests and scripts wait for: the worker listens from here on.
  writeLine(io.stderr, `worker ${workerId} ready on ${connection.label}: ${worker.queues.join(', ')}`);

  let stops = 0;
  await new Promise<void>((resolveStop) => {
    const stop = () => {
      stops += 1;
      if (stops > 1) process.exit(EXIT.interrupted);
      writeLine(io.stderr, `worker ${workerId}: stopping after the rounds in flight (Ctrl-C again to quit at once)…`);
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await worker.close();
  return EXIT.ok;
}

interface WorkerTargetFlags {
  readonly targets?: string | undefined;
  readonly replies?: string | undefined;
  readonly replay?: string | undefined;
}

/** The targets this machine plays, from --replies, --replay, --targets or every configured target it has a key or binary for. */
async function workerTargets(
  values: WorkerTargetFlags,
  io: CliIo,
  replyDelayMs: number,
  secrets: string[],
  pauseTarget: (targetId: string, ms: number) => void,
): Promise<readonly ExperimentTarget[]> {
  const [scale, experiment] = await Promise.all([import('@holdfast/lab/scale'), import('@holdfast/lab/experiment')]);
  if (values.replies !== undefined) {
    const replies = await experiment.loadDemoReplies(experiment.demoRepliesFileOf(io.cwd, values.replies));
    const known = [...new Set(replies.replies.map((reply) => reply.target))];
    return experiment.resolveScriptedTargets(known, known, experiment.demoReplyLookup(replies)).map((target) => scale.withReplyDelay(target, replyDelayMs));
  }
  if (values.replay !== undefined) {
    const { readRunFile } = await import('@holdfast/lab/store');
    const { events } = await readRunFile(resolve(io.cwd, values.replay));
    const start = events.find((event) => event.type === 'run-start');
    const ids = start?.type === 'run-start' ? start.targets.map((target) => target.id) : [];
    return experiment.resolveReplayTargets(ids, events).map((target) => scale.withReplyDelay(target, replyDelayMs));
  }
  const runtime = (targetId: string) => ({ onRetryAfter: (ms: number) => pauseTarget(targetId, ms) });
  if (values.targets !== undefined) {
    const ids = values.targets
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    const resolved = await experiment.resolveConfiguredTargets(ids, io.cwd, io.env, runtime);
    secrets.push(...resolved.secrets);
    return resolved.targets;
  }
  // Every configured target this machine can play: a missing key or agent binary leaves that target to other workers.
  const { loadTargetsConfig } = await import('@holdfast/lab/models');
  const config = await loadTargetsConfig(io.cwd);
  const playable: ExperimentTarget[] = [];
  for (const target of config.targets) {
    try {
      const resolved = await experiment.resolveConfiguredTargets([target.id], io.cwd, io.env, runtime);
      playable.push(...resolved.targets);
      secrets.push(...resolved.secrets);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      writeLine(io.stderr, `Not playing ${target.id}: ${error.message}`);
    }
  }
  return playable;
}

/** A run's judge rules are graded with this machine's judge targets and keys, resolved once per set of targets. */
function judgeResolver(io: CliIo, secrets: string[]): (rulebook: Rulebook) => Promise<JudgeLookup> {
  const judgeLookups = new Map<string, Promise<JudgeLookup>>();
  return (rulebook: Rulebook): Promise<JudgeLookup> => {
    const wanted = [...new Set((rulebook.judgeRules ?? []).map((rule) => rule.target))].sort().join(',');
    let lookup = judgeLookups.get(wanted);
    if (lookup === undefined) {
      lookup = import('@holdfast/lab/judge').then(async ({ resolveJudgeTargets }) => {
        const resolved = await resolveJudgeTargets(rulebook, io.cwd, io.env);
        for (const problem of resolved.problems.values()) writeLine(io.stderr, `warning: ${problem}; its judge rules will be recorded as judge-error.`);
        secrets.push(...resolved.secrets);
        return resolved.judges;
      });
      judgeLookups.set(wanted, lookup);
    }
    return lookup;
  };
}
