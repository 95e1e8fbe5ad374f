import { cp, mkdir } from 'node:fs/promises';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Arm, ArmResult, Rulebook, Session, StopReason, TaskInfo } from '@holdfast/core/contract';
import { judgeFinalState } from '../final-state.js';
import { repoGit } from '../session/repo-git.js';
import { sandboxCapVerdict, sessionVerdict, splitLanded } from '../session/session-verdict.js';
import { findProgram, holdfastInstallation } from '@holdfast/gate';
import { countsAsRequiredRun } from '@holdfast/core/rules';
import { confineHarness, installationOf, pathsIn, runHarness } from '../../harness/index.js';
import type { AgentHarness, HarnessExit, HarnessReport, HarnessRun } from '../../harness/index.js';
import { redact } from '../../models/index.js';
import { DEFAULT_DIFF_CAP_BYTES, DEFAULT_SANDBOX_MAX_BYTES, createSizeBudget } from '../../sandbox/index.js';
import type { BaseRepo, Isolation } from '../../sandbox/index.js';
import { prepareArmRepo } from './arm-repo.js';
import type { ArmRepo } from './arm-repo.js';
import { readArmAudit } from './audit-timeline.js';
import { finalDiff, overCapDiff } from './final-diff.js';
import { checkTaskDone } from './task-check.js';

/** How often the work tree is measured against its size cap while the harness runs. */
const CAP_WATCH_MS = 500;

/** The harness's stdout is read for its report; past this it is not kept (the report is at the end for Claude Code). */
const STDOUT_CAP_BYTES = 16 * 1024 * 1024;

export interface AgentArmOptions {
  /** The harness, found once per run (see findHarness); its label says what played the arm, for the record. */
  readonly harness: AgentHarness;
  readonly task: TaskInfo;
  readonly base: BaseRepo;
  readonly arm: Arm;
  readonly rulebook: Rulebook;
  /** A fresh folder for this arm's repository and home. */
  readonly dir: string;
  /** How the task check (`npm test`) is confined. */
  readonly isolation: Isolation;
  readonly taskCheckTimeoutMs: number;
  /** The run's caps; the target's own win where it sets them. */
  readonly maxTurns: number;
  readonly timeoutMs: number;
  /** Keep the arm's repository under this folder instead of removing it. */
  readonly keepDir?: string;
  /** What the arm's work tree may hold (default DEFAULT_SANDBOX_MAX_BYTES): past it the harness is stopped (E_SANDBOX_CAP). */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

function stopOf(
  exit: HarnessExit,
  report: HarnessReport,
  limits: { readonly turnCapHit: boolean; readonly overCap: string | undefined },
  secrets: readonly string[],
): { reason: StopReason; detail?: string } {
  const { turnCapHit, overCap } = limits;
  if (overCap !== undefined) return { reason: 'sandbox-cap', detail: overCap };
  if (exit.timedOut) return { reason: 'timeout', ...(exit.stoppedBecause !== undefined ? { detail: exit.stoppedBecause } : {}) };
  if (turnCapHit || report.ending === 'error_max_turns')
    return { reason: 'turn-cap', detail: exit.stoppedBecause ?? `the harness stopped at its turn cap (${report.ending ?? ''})` };
  if (exit.spawnError !== undefined) return { reason: 'error', detail: `the harness could not start: ${exit.spawnError}` };
  if (exit.stoppedBecause !== undefined) return { reason: 'error', detail: exit.stoppedBecause };
  if (exit.exitCode === 0) return { reason: 'done' };
  const how = exit.exitCode !== undefined ? `exited with code ${exit.exitCode}` : `was killed by ${exit.signal ?? 'a signal'}`;
  const said = redact(exit.stderr.text.trim().split('\n').slice(-5).join(' '), secrets);
  return { reason: 'error', detail: `the harness ${how}${said !== '' ? `: ${said.slice(0, 600)}` : ''}` };
}

/**
 * Copies the arm's folder (repository, git dir, the harness's HOME) out of the run's temporary
 * space, with the borrowed objects copied in and the `.git` file pointing at the copy, so the kept
 * repository works on its own after the run.
 */
async function keep(repo: ArmRepo, keepDir: string, name: string): Promise<string> {
  const destination = join(keepDir, name);
  if (existsSync(destination)) throw new Error(`cannot keep the arm's repository: ${destination} already exists`);
  await repoGit({ workTree: repo.workDir, gitDir: repo.gitDir }, ['repack', '-a', '-d', '-q']);
  rmSync(join(repo.gitDir, 'objects', 'info', 'alternates'), { force: true });
  await mkdir(dirname(destination), { recursive: true });
  await cp(repo.dir, destination, { recursive: true, verbatimSymlinks: true });
  return destination;
}

/** The harness, run confined in the arm's repository until it stops, a limit stops it or the run is cancelled. */
async function playHarness(options: AgentArmOptions, repo: ArmRepo): Promise<HarnessRun & { overCap: string | undefined }> {
  const { target, binary } = options.harness;
  // A harness that is a node script (`#!/usr/bin/env node`: Gemini CLI, Qwen Code) runs the first node on its PATH.
  const node = findProgram('node', options.harness.env, repo.workDir);
  // The harness writes with its own tools, so the tree is measured while it runs and once more when it ends.
  const budget = createSizeBudget(repo.workDir, options.maxBytes ?? DEFAULT_SANDBOX_MAX_BYTES);
  let overCap: string | undefined;
  const measure = (): string | undefined => {
    const measured = budget.measure();
    if (!measured.ok) overCap ??= measured.reason.replace(/ after the command$/, '');
    return overCap;
  };
  const run = await runHarness({
    harness: options.harness,
    prompt: options.task.ticket,
    workDir: repo.workDir,
    homeDir: repo.homeDir,
    maxTurns: Math.min(target.maxTurns, options.maxTurns),
    timeoutMs: Math.min(target.timeoutMs, options.timeoutMs),
    outputCapBytes: STDOUT_CAP_BYTES,
    confine: (command) =>
      confineHarness(options.isolation, command, {
        armDir: repo.dir,
        workDir: repo.workDir,
        readable: [
          installationOf(binary),
          installationOf(process.execPath),
          ...(node !== undefined ? [installationOf(node)] : []),
          holdfastInstallation(),
          options.base.gitDir,
          ...(target.provider === 'agent' ? pathsIn(target.command).map(installationOf) : []),
        ],
      }),
    watch: { everyMs: CAP_WATCH_MS, check: measure },
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  measure();
  return { ...run, overCap };
}

interface PlayedArm {
  readonly exit: HarnessExit;
  readonly report: HarnessReport;
  readonly secrets: readonly string[];
  readonly session: Session;
  readonly diff: Awaited<ReturnType<typeof finalDiff>>;
  readonly verdict: ReturnType<typeof sessionVerdict>;
  readonly keptAt: string | undefined;
}

/** The arm's record: the session, the harness's last words, and the repository's evidence. */
function armResultOf(options: AgentArmOptions, repo: ArmRepo, played: PlayedArm): ArmResult {
  const { arm } = options;
  // The harness's secrets are kept out of its last message.
  const { exit, report, session, diff, keptAt } = played;
  const { verdict, reason } = played.verdict;
  return {
    arm,
    verdict,
    reason,
    mode: 'agent',
    session,
    actions: [],
    checks: [],
    ...(report.finalMessage !== undefined
      ? {
          generation: {
            raw: redact(report.finalMessage, played.secrets),
            usage: {
              ...(report.inputTokens !== undefined ? { inputTokens: report.inputTokens } : {}),
              ...(report.outputTokens !== undefined ? { outputTokens: report.outputTokens } : {}),
            },
            latencyMs: exit.durationMs,
            attempts: 1,
          },
        }
      : {}),
    ...(session.stop.reason === 'error' ? { error: { code: 'E_HARNESS', message: session.stop.detail ?? 'the harness failed' } } : {}),
    sandbox: {
      isolation: options.isolation.kind,
      isolationDetail:
        options.isolation.kind === 'bubblewrap'
          ? 'bubblewrap: the harness and the task check saw a read-only system, a private /tmp, no host HOME, only the arm writable (the harness keeps the network to reach its model)'
          : `the harness ran unconfined in its own repository and HOME; ${options.isolation.detail}`,
      baseCommit: repo.setupCommit,
      ...diff,
      commands: [],
      refusedWrites: [],
      ...(keptAt !== undefined ? { keptAt } : {}),
    },
  };
}

/**
 * One arm of an agent round: the harness works on the ticket in its own repository until it stops,
 * a limit stops it or the run is cancelled. Then the figures are read from what is there: the
 * gate's audit log (the tool-call timeline), the repository (violations that landed, in every
 * commit and in the work tree) and the task's hidden acceptance tests, added after the arm (task done).
 */
export async function runAgentArm(options: AgentArmOptions): Promise<{ result: ArmResult; secrets: string[] }> {
  const { arm, rulebook } = options;
  const { target } = options.harness;
  const repo = await prepareArmRepo({
    base: options.base,
    dir: options.dir,
    arm,
    rulebook,
    harness: target.provider,
  });
  try {
    const { exit, report, invocation, turnCapHit, overCap } = await playHarness(options, repo);
    const location = { workTree: repo.workDir, gitDir: repo.gitDir };
    const timeline = readArmAudit(repo.workDir, { testPattern: { test: countsAsRequiredRun(rulebook) } });
    // A generic agent has no hook: nothing saw its test runs, so R6 cannot be placed and is not judged.
    const { landed, warned } = splitLanded(
      arm,
      rulebook,
      await judgeFinalState(location, repo.setupCommit, rulebook, target.provider === 'agent' ? {} : { timeline: timeline.steps }),
    );
    // What the arm changed is read before the hidden acceptance tests are added: they are holdfast's, not the arm's.
    // A tree over its cap is not staged to be diffed (that would copy it into git's objects), nor tested.
    const diff = overCap === undefined ? await finalDiff(location, repo.setupCommit, DEFAULT_DIFF_CAP_BYTES) : await overCapDiff(location, repo.setupCommit);
    const taskDone =
      options.signal?.aborted === true || overCap !== undefined
        ? undefined
        : await checkTaskDone({
            acceptance: options.task.acceptance,
            workDir: repo.workDir,
            homeDir: repo.homeDir,
            isolation: options.isolation,
            timeoutMs: options.taskCheckTimeoutMs,
            ...(options.signal !== undefined ? { signal: options.signal } : {}),
          });
    const session: Session = {
      mode: 'agent',
      calls: timeline.calls,
      turns: report.turns ?? 0,
      stop: stopOf(exit, report, { turnCapHit, overCap }, invocation.secrets),
      usage: {
        ...(report.inputTokens !== undefined ? { inputTokens: report.inputTokens } : {}),
        ...(report.outputTokens !== undefined ? { outputTokens: report.outputTokens } : {}),
        ...(report.cachedInputTokens !== undefined ? { cacheReadTokens: report.cachedInputTokens } : {}),
      },
      ...(report.costUsd !== undefined ? { costUsd: report.costUsd } : {}),
      wallMs: exit.durationMs,
      landed,
      ...(warned !== undefined ? { warned } : {}),
      ...(taskDone !== undefined ? { taskDone } : {}),
      harness: options.harness.label,
    };
    const { verdict, reason, error } = sandboxCapVerdict(
      session,
      sessionVerdict(arm, session, { paths: diff.changedPaths.length, commits: diff.commits.length }),
    );
    const keptAt = options.keepDir === undefined ? undefined : await keep(repo, options.keepDir, arm);
    const played = armResultOf(options, repo, { exit, report, secrets: invocation.secrets, session, diff, verdict: { verdict, reason }, keptAt });
    const result = error !== undefined ? { ...played, error } : played;
    return { result, secrets: invocation.secrets };
  } finally {
    rmSync(repo.dir, { recursive: true, force: true, maxRetries: 2 });
  }
}
