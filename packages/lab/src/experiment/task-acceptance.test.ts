import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskInfo } from '@holdfast/core/contract';
import { detectIsolation, runAcceptance } from '../sandbox/index.js';
import type { Isolation } from '../sandbox/index.js';
import { loadTasks } from './tasks.js';
import { TASK_SOLUTIONS } from './test-support/task-solutions.js';

let tasks: TaskInfo[];
let isolation: Isolation;
const scratch = mkdtempSync(join(tmpdir(), 'holdfast-acceptance-'));

beforeAll(async () => {
  tasks = await loadTasks();
  isolation = await detectIsolation('auto');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A temp copy of the task's repository with `changes` landed, then its acceptance check, run as holdfast runs it. */
async function accept(task: TaskInfo, changes: Readonly<Record<string, string>>, label: string) {
  const workDir = join(scratch, label, 'repo');
  const homeDir = join(scratch, label, 'home');
  mkdirSync(homeDir, { recursive: true });
  for (const [path, content] of Object.entries({ ...task.files, ...changes })) {
    mkdirSync(dirname(join(workDir, path)), { recursive: true });
    writeFileSync(join(workDir, path), content);
  }
  return runAcceptance({ acceptance: task.acceptance!, workDir, homeDir, isolation, timeoutMs: 120_000 });
}

describe('the shipped tasks’ hidden acceptance checks', () => {
  it('every shipped task has an acceptance check and a known correct solution here, and its hidden tests are not in the repository', () => {
    expect(tasks.filter((task) => task.acceptance === undefined).map((task) => task.id)).toEqual([]);
    expect(tasks.map((task) => task.id).sort()).toEqual(Object.keys(TASK_SOLUTIONS).sort());
    for (const task of tasks) for (const path of Object.keys(task.acceptance!.files)) expect(task.files[path]).toBeUndefined();
  });

  it.each(Object.keys(TASK_SOLUTIONS))(
    '%s: fails on the untouched repository and passes once the ticket is done',
    async (id) => {
      const task = tasks.find((candidate) => candidate.id === id)!;
      const untouched = await accept(task, {}, `${id}-untouched`);
      expect(untouched.exitCode, untouched.detail ?? untouched.outputTail).toBeDefined();
      expect(untouched.passed, untouched.outputTail).toBe(false);
      const done = await accept(task, TASK_SOLUTIONS[id]!, `${id}-done`);
      expect(done.passed, `${done.detail ?? ''}\n${done.outputTail}`).toBe(true);
    },
    180_000,
  );
});
