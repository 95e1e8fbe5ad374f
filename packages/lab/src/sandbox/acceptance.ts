import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TaskCheck, TaskInfo } from '@holdfast/core/contract';
import { runSandboxCommand, splitCommand } from './command.js';
import type { CommandDeadline, CommandRunOptions } from './command.js';
import { confinePath } from './confine.js';
import { trialFailureCause } from './trial-cause.js';
import type { Isolation } from './isolation.js';

/** A task's acceptance check: hidden test files (path → content) and the command that decides. */
export type Acceptance = NonNullable<TaskInfo['acceptance']>;

export interface AcceptanceRunOptions {
  readonly acceptance: Acceptance;
  /** The repository as the arm left it; the hidden tests are added here. */
  readonly workDir: string;
  readonly homeDir: string;
  readonly isolation: Isolation;
  readonly timeoutMs: number;
  /** Folders the command may read that the trial hides otherwise (a node_modules snapshot under /tmp). */
  readonly readable?: readonly string[];
  /** Installed dependencies bound read-only into the work tree (the repository's node_modules, .venv). */
  readonly dependencies?: CommandRunOptions['dependencies'];
  /** Folders emptied besides /tmp (the run's other sandboxes). */
  readonly hidden?: readonly string[];
  readonly deadline?: CommandDeadline;
  readonly signal?: AbortSignal;
}

const OUTPUT_TAIL_CHARS = 2_000;
const OUTPUT_CAP_BYTES = 256 * 1024;

function tail(text: string): string {
  return text.length <= OUTPUT_TAIL_CHARS ? text : `…${text.slice(text.length - OUTPUT_TAIL_CHARS)}`;
}

/** Writes beside and renames, so a file the arm left (or a hard link to a shared base) is replaced, never written through. */
function writeHidden(workDir: string, path: string, content: string): string | undefined {
  const confined = confinePath(workDir, path);
  if (!confined.ok) return confined.reason;
  try {
    mkdirSync(dirname(confined.absolute), { recursive: true });
    rmSync(confined.absolute, { recursive: true, force: true });
    const temporary = `${confined.absolute}.holdfast-accept`;
    rmSync(temporary, { force: true });
    writeFileSync(temporary, content, { mode: 0o644, flag: 'wx' });
    renameSync(temporary, confined.absolute);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Whether the ticket was done: the task's hidden tests are added to the arm's repository after the
 * arm, then its acceptance command runs, confined like any sandbox command (bubblewrap where it
 * works, scrubbed environment, no shell). The command is holdfast's own, so the rulebook's allowlist
 * for model-written commands does not apply to it. Never throws: what could not run is `passed: false`
 * with the reason.
 */
export async function runAcceptance(options: AcceptanceRunOptions): Promise<TaskCheck> {
  const { command } = options.acceptance;
  for (const [path, content] of Object.entries(options.acceptance.files)) {
    const refused = writeHidden(options.workDir, path, content);
    if (refused !== undefined) return { command, passed: false, detail: `the hidden acceptance test ${path} could not be added: ${refused}`, outputTail: '' };
  }
  const split = splitCommand(command);
  if (!split.ok) return { command, passed: false, detail: `the acceptance command cannot run: ${split.reason}`, outputTail: '' };
  const run = await runSandboxCommand({
    argv: split.argv,
    cwd: options.workDir,
    homeDir: options.homeDir,
    isolation: options.isolation,
    timeoutMs: options.timeoutMs,
    outputCapBytes: OUTPUT_CAP_BYTES,
    ...(options.readable !== undefined ? { readable: options.readable } : {}),
    ...(options.dependencies !== undefined ? { dependencies: options.dependencies } : {}),
    ...(options.hidden !== undefined ? { hidden: options.hidden } : {}),
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  const outputTail = tail(run.output.text);
  if (run.spawnError !== undefined) return { command, passed: false, detail: `could not start: ${run.spawnError}`, outputTail };
  if (run.timedOut) return { command, passed: false, detail: `killed after the ${Math.round(options.timeoutMs / 1000)} s timeout`, outputTail };
  if (run.exitCode === undefined) return { command, passed: false, detail: `ended by signal ${run.signal ?? 'unknown'}`, outputTail };
  // A failure the trial caused (a program, a name, a dependency missing) says so: it is not "the tests do not pass".
  const cause = run.exitCode === 0 ? undefined : trialFailureCause(run.output.text);
  return { command, passed: run.exitCode === 0, exitCode: run.exitCode, outputTail, ...(cause !== undefined ? { detail: cause } : {}) };
}
