import type { TaskCheck } from '@holdfast/core/contract';
import { runSandboxCommand } from '../../sandbox/index.js';
import type { Isolation } from '../../sandbox/index.js';

export const TASK_TEST_COMMAND = ['npm', 'test'] as const;
const OUTPUT_TAIL_CHARS = 2_000;

export interface TaskCheckOptions {
  readonly workDir: string;
  readonly homeDir: string;
  readonly isolation: Isolation;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Whether the task got done: the repository's own `npm test`, run by holdfast after the agent
 * stopped, confined like any sandbox command (bubblewrap where it works, scrubbed environment).
 */
export async function checkTaskDone(options: TaskCheckOptions): Promise<TaskCheck> {
  const command = TASK_TEST_COMMAND.join(' ');
  const run = await runSandboxCommand({
    argv: [...TASK_TEST_COMMAND],
    cwd: options.workDir,
    homeDir: options.homeDir,
    isolation: options.isolation,
    timeoutMs: options.timeoutMs,
    outputCapBytes: 256 * 1024,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  const text = run.output.text;
  const outputTail = text.length <= OUTPUT_TAIL_CHARS ? text : `…${text.slice(text.length - OUTPUT_TAIL_CHARS)}`;
  if (run.spawnError !== undefined) return { command, passed: false, detail: `could not start: ${run.spawnError}`, outputTail };
  if (run.timedOut) return { command, passed: false, detail: `killed after the ${Math.round(options.timeoutMs / 1000)} s timeout`, outputTail };
  if (run.exitCode === undefined) return { command, passed: false, detail: `ended by signal ${run.signal ?? 'unknown'}`, outputTail };
  return { command, passed: run.exitCode === 0, exitCode: run.exitCode, outputTail };
}
