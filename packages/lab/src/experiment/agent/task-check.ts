import type { TaskCheck, TaskInfo } from '@holdfast/core/contract';
import { runAcceptance } from '../../sandbox/index.js';
import type { Isolation } from '../../sandbox/index.js';

export interface TaskCheckOptions {
  /** The task's hidden acceptance check; absent, done is not judged. */
  readonly acceptance: TaskInfo['acceptance'];
  readonly workDir: string;
  readonly homeDir: string;
  readonly isolation: Isolation;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Whether the ticket got done: the task's hidden acceptance tests, added by holdfast after the
 * agent stopped and run confined like any sandbox command. A task without an acceptance check is
 * not judged (undefined): the repository's own tests may already pass untouched, so they prove nothing.
 */
export async function checkTaskDone(options: TaskCheckOptions): Promise<TaskCheck | undefined> {
  if (options.acceptance === undefined) return undefined;
  return runAcceptance({
    acceptance: options.acceptance,
    workDir: options.workDir,
    homeDir: options.homeDir,
    isolation: options.isolation,
    timeoutMs: options.timeoutMs,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
}
