import { copyFileSync, mkdirSync, rmSync, writeFileSync, renameSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ActionOutcome, ArmResult, CheckResult, Landed, Recheck, SandboxCommand, SandboxResult } from '@holdfast/core/contract';
import { observedRuns } from '@holdfast/core/rules';
import { decideCommand, runSandboxCommand } from './command.js';
import type { CommandDeadline } from './command.js';
import { commandEnding } from './command-ending.js';
import { confinePath } from './confine.js';
import { cappedDiff } from './capped-diff.js';
import { git } from './git.js';
import type { Isolation } from './isolation.js';
import type { Pattern } from '@holdfast/core/rules';
import { dependencyMounts, detachSandbox } from './materialise.js';
import type { SandboxRepo } from './materialise.js';
import { createSizeBudget, DEFAULT_SANDBOX_MAX_BYTES } from './size-budget.js';
import type { SizeBudget } from './size-budget.js';

export interface LandOptions {
  readonly isolation: Isolation;
  readonly allowlist: readonly Pick<Pattern, 'test'>[];
  readonly commandTimeoutMs: number;
  readonly commandDeadline?: CommandDeadline;
  readonly outputCapBytes: number;
  readonly diffCapBytes: number;
  /** What the work tree may hold (default DEFAULT_SANDBOX_MAX_BYTES): past it the landing stops with E_SANDBOX_CAP. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
  /**
   * Asked before each applied action once a command has run, with how the runs so far ended: a
   * failed check stops the landing there (the held arm's authority over what really happened).
   */
  readonly recheck?: Recheck;
}

/** Why the sandbox could not go on: a file-system error (a 300-character name, a symlink loop) or broken machinery. */
export interface SandboxFailure {
  /** The action being landed, when it was one. */
  readonly index?: number;
  readonly code: string;
  readonly message: string;
}

/**
 * What landing did. `result` carries the evidence (each applied action's `landed`, the sandbox
 * record); `halt` and `failure` say where it stopped and why, for the arm logic to turn into a
 * verdict: the sandbox itself never decides one.
 */
export interface SandboxLanding {
  readonly result: ArmResult;
  readonly halt?: { readonly index: number; readonly check: CheckResult };
  readonly failure?: SandboxFailure;
}

export const DEFAULT_OUTPUT_CAP_BYTES = 64 * 1024;
export const DEFAULT_DIFF_CAP_BYTES = 256 * 1024;

interface Landing {
  readonly landed: Landed;
  readonly refusedWrite?: { index: number; path: string; reason: string };
  readonly command?: SandboxCommand;
  readonly commit?: { index: number; hash: string; message: string };
  /** The tree's size cap was reached: the write refused, or the command left the tree over it. */
  readonly overCap?: string;
}

function writeFileAtomically(absolute: string, content: string): void {
  mkdirSync(dirname(absolute), { recursive: true });
  // Write beside and rename: a file still hard-linked to the base is replaced, never written through.
  const temporary = `${absolute}.holdfast-write`;
  rmSync(temporary, { force: true });
  // `wx` refuses to follow anything already sitting at the temporary name.
  writeFileSync(temporary, content, { mode: 0o644, flag: 'wx' });
  renameSync(temporary, absolute);
}

async function landOne(repo: SandboxRepo, outcome: ActionOutcome, options: LandOptions, budget: SizeBudget): Promise<Landing> {
  const { action, index } = outcome;
  switch (action.type) {
    case 'write': {
      const confined = confinePath(repo.workDir, action.path);
      if (!confined.ok) {
        return {
          landed: { state: 'refused', detail: `Not written: ${confined.reason}.` },
          refusedWrite: { index, path: action.path, reason: confined.reason },
        };
      }
      try {
        if (lstatSync(confined.absolute, { throwIfNoEntry: false })?.isDirectory() === true) {
          return { landed: { state: 'failed', detail: `Not written: ${confined.relative} is a folder.` } };
        }
        const admitted = budget.admitWrite(confined.relative, Buffer.byteLength(action.content));
        if (!admitted.ok) return { landed: { state: 'refused', detail: `Not written: ${admitted.reason}.` }, overCap: admitted.reason };
        writeFileAtomically(confined.absolute, action.content);
      } catch (error) {
        return { landed: { state: 'failed', detail: `Not written: ${error instanceof Error ? error.message : String(error)}.` } };
      }
      repo.linked.delete(confined.relative);
      return { landed: { state: 'done', detail: `Wrote ${confined.relative} (${Buffer.byteLength(action.content)} bytes).` } };
    }
    case 'delete': {
      const confined = confinePath(repo.workDir, action.path);
      if (!confined.ok) {
        return {
          landed: { state: 'refused', detail: `Not deleted: ${confined.reason}.` },
          refusedWrite: { index, path: action.path, reason: confined.reason },
        };
      }
      const existed = lstatSync(confined.absolute, { throwIfNoEntry: false }) !== undefined;
      budget.forget(confined.relative);
      rmSync(confined.absolute, { recursive: true, force: true });
      for (const file of repo.linked) if (file === confined.relative || file.startsWith(`${confined.relative}/`)) repo.linked.delete(file);
      return { landed: { state: 'done', detail: existed ? `Deleted ${confined.relative}.` : `${confined.relative} did not exist; nothing to delete.` } };
    }
    case 'run': {
      const decision = decideCommand(action.cmd, options.allowlist);
      if (!decision.execute) {
        return { landed: { state: 'refused', detail: decision.reason }, command: { index, cmd: action.cmd, executed: false, reason: decision.reason } };
      }
      // From here on something other than holdfast may write in the tree: nothing may still be shared with the base.
      detachSandbox(repo);
      const run = await runSandboxCommand({
        argv: decision.argv,
        cwd: repo.workDir,
        homeDir: repo.homeDir,
        hidden: repo.hidden,
        ...(repo.base.nodeModules !== undefined ? { readable: [repo.base.nodeModules] } : {}),
        ...dependencyMounts(repo),
        isolation: options.isolation,
        timeoutMs: options.commandTimeoutMs,
        ...(options.commandDeadline !== undefined ? { deadline: options.commandDeadline } : {}),
        outputCapBytes: options.outputCapBytes,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
      if (run.spawnError !== undefined) {
        const reason = `Could not start: ${run.spawnError}.`;
        return { landed: { state: 'failed', detail: reason }, command: { index, cmd: action.cmd, executed: false, reason, durationMs: run.durationMs } };
      }
      const { ended, detail, overCap } = commandEnding(run, options.commandTimeoutMs, budget);
      return {
        ...(overCap !== undefined ? { overCap } : {}),
        landed: { state: 'done', detail },
        command: {
          index,
          cmd: action.cmd,
          executed: true,
          reason: ended,
          ...(run.exitCode !== undefined ? { exitCode: run.exitCode } : {}),
          ...(run.signal !== undefined ? { signal: run.signal } : {}),
          timedOut: run.timedOut,
          output: run.output,
          durationMs: run.durationMs,
        },
      };
    }
    case 'commit': {
      const location = { gitDir: repo.gitDir, workTree: repo.workDir };
      try {
        await git(location, ['add', '--all']);
        await git(location, ['commit', '--quiet', '--allow-empty', '--no-verify', '--cleanup=verbatim', '-m', action.message]);
        const hash = (await git(location, ['rev-parse', 'HEAD'])).trim();
        return { landed: { state: 'done', detail: `Committed ${hash.slice(0, 12)}.`, commit: hash }, commit: { index, hash, message: action.message } };
      } catch (error) {
        return { landed: { state: 'failed', detail: `Not committed: ${error instanceof Error ? error.message : String(error)}` } };
      }
    }
  }
}

/** Everything that landed in the tree, committed or not, against the base commit; the repository's own index is left alone. */
export async function diffAgainstBase(repo: SandboxRepo, capBytes: number): Promise<{ diff: SandboxResult['diff']; changedPaths: string[] }> {
  const location = { gitDir: repo.gitDir, workTree: repo.workDir };
  const index = join(repo.dir, 'diff-index');
  copyFileSync(join(repo.gitDir, 'index'), index);
  try {
    await git(location, ['add', '--all'], { GIT_INDEX_FILE: index });
    const flags = ['--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];
    const diff = await cappedDiff(location, ['diff', ...flags, repo.base.commit], { GIT_INDEX_FILE: index }, capBytes);
    const names = await git(location, ['diff', ...flags, '--name-only', '-z', repo.base.commit], { GIT_INDEX_FILE: index });
    return { diff, changedPaths: names.split('\0').filter((name) => name.length > 0) };
  } finally {
    rmSync(index, { force: true });
  }
}

/** A file-system error's code (ENAMETOOLONG, ELOOP, EACCES…), or the holdfast error's, or a generic one. */
function failureOf(error: unknown, index?: number): SandboxFailure {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const known = typeof code === 'string' ? code : 'E_SANDBOX';
  return {
    ...(index !== undefined ? { index } : {}),
    code: known.startsWith('E_') ? known : 'E_SANDBOX_FS',
    message: known.startsWith('E_') || message.startsWith(known) ? message : `${known}: ${message}`,
  };
}

/**
 * Lands what the arm result says was applied, in order, and returns the result with what really
 * happened. The verdict is not touched: it was decided from the checks before anything landed;
 * only `recheck` (run outcomes) can stop the landing early, and the caller turns that into a
 * verdict. Only `applied` and `warned` actions land, so the held arm stops where it was blocked and a refused
 * commit is never made. A file-system error stops the landing and is returned, never thrown.
 */
export async function landArm(repo: SandboxRepo, result: ArmResult, options: LandOptions): Promise<SandboxLanding> {
  const commands: SandboxCommand[] = [];
  const commits: SandboxResult['commits'] = [];
  const refusedWrites: SandboxResult['refusedWrites'] = [];
  const actions: ActionOutcome[] = [];
  let halt: SandboxLanding['halt'];
  let failure: SandboxFailure | undefined;
  const budget = createSizeBudget(repo.workDir, options.maxBytes ?? DEFAULT_SANDBOX_MAX_BYTES);
  for (const outcome of result.actions) {
    if ((outcome.status !== 'applied' && outcome.status !== 'warned') || options.signal?.aborted === true || halt !== undefined || failure !== undefined) {
      actions.push(outcome);
      continue;
    }
    if (options.recheck !== undefined && commands.length > 0) {
      const failed = await options.recheck(outcome.index, observedRuns(commands));
      if (failed !== undefined) {
        halt = { index: outcome.index, check: failed };
        actions.push(outcome);
        continue;
      }
    }
    let landing: Landing;
    try {
      landing = await landOne(repo, outcome, options, budget);
    } catch (error) {
      failure = failureOf(error, outcome.index);
      actions.push({ ...outcome, landed: { state: 'failed', detail: `The sandbox could not land it: ${failure.message}` } });
      continue;
    }
    actions.push({ ...outcome, landed: landing.landed });
    if (landing.command !== undefined) commands.push(landing.command);
    if (landing.commit !== undefined) commits.push(landing.commit);
    if (landing.refusedWrite !== undefined) refusedWrites.push(landing.refusedWrite);
    if (landing.overCap !== undefined) failure = { index: outcome.index, code: 'E_SANDBOX_CAP', message: landing.overCap };
  }
  let diff: SandboxResult['diff'] = { text: '', truncated: false, bytes: 0 };
  let changedPaths: string[] = [];
  // A tree a command left over its cap is not staged again to be diffed: that would copy it into git's objects.
  const overTree = failure?.code === 'E_SANDBOX_CAP' && budget.used() > budget.maxBytes;
  try {
    if (!overTree) ({ diff, changedPaths } = await diffAgainstBase(repo, options.diffCapBytes));
  } catch (error) {
    failure ??= failureOf(error);
  }
  const sandbox: SandboxResult = {
    isolation: options.isolation.kind,
    isolationDetail: options.isolation.detail,
    baseCommit: repo.base.commit,
    commits,
    diff,
    changedPaths,
    commands,
    refusedWrites,
  };
  return { result: { ...result, actions, sandbox }, ...(halt !== undefined ? { halt } : {}), ...(failure !== undefined ? { failure } : {}) };
}
