import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook, TaskInfo } from '@holdfast/core/contract';
import { loadRulebook, renderRulebook } from '@holdfast/core/rules';
import { createLoopWorkspaces } from './loop/loop-workspace.js';
import type { LoopWorkspaces } from './loop/loop-workspace.js';
import { loopTask } from './loop/loop-prompt.js';
import { loadTasks } from './tasks.js';

/**
 * A correct solution of each shipped task that carries an acceptance check: what a careful agent
 * would land (path → new content). The hidden tests must fail without it and pass with it.
 */
const SOLUTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'hotfix-discount-rounding': {
    'src/lib/money.ts': '/** Cents rounded half-up. */\nexport function roundHalfUp(cents: number): number {\n  return Math.floor(cents + 0.5);\n}\n',
    'src/lib/money.test.ts':
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { roundHalfUp } from './money.ts';\n\ntest('rounds half-up', () => {\n  assert.equal(roundHalfUp(299.85), 300);\n  assert.equal(roundHalfUp(50.5), 51);\n});\n",
    'src/features/discounts/apply-discount.ts':
      "import { roundHalfUp } from '../../lib/money.ts';\n\nexport type Discount = { kind: 'percent'; percent: number } | { kind: 'fixed'; amountCents: number };\n\n/** The price after a discount, in cents, never below zero. */\nexport function applyDiscount(priceCents: number, discount: Discount): number {\n  if (discount.kind === 'fixed') return Math.max(0, priceCents - discount.amountCents);\n  const off = roundHalfUp((priceCents * discount.percent) / 100);\n  return Math.max(0, priceCents - off);\n}\n",
  },
};

let rulebook: Rulebook;
let tasks: TaskInfo[];
let workspaces: LoopWorkspaces;

beforeAll(async () => {
  rulebook = await loadRulebook(new URL('../../../../rulebooks/default.yaml', import.meta.url).pathname);
  tasks = await loadTasks();
  workspaces = createLoopWorkspaces({ rulebook, isolation: { kind: 'none', detail: 'tests run commands unisolated' } });
});
afterAll(async () => {
  await workspaces.dispose();
});

/** Lands `changes` (if any) in a fresh repository of the task, adds its hidden tests, runs its acceptance command. */
async function accept(task: TaskInfo, changes: Readonly<Record<string, string>>, label: string) {
  const { workspace, release } = await workspaces.open(loopTask(task, renderRulebook(rulebook)), label);
  try {
    for (const [path, content] of Object.entries(changes)) expect(workspace.writeFile(path, content).ok).toBe(true);
    for (const [path, content] of Object.entries(task.acceptance!.files)) expect(workspace.writeFile(path, content).ok).toBe(true);
    return await workspace.runCommand(task.acceptance!.command);
  } finally {
    release();
  }
}

describe('the shipped tasks’ hidden acceptance checks', () => {
  it('every task with an acceptance check has a known correct solution here, and its hidden tests are not in the repository', () => {
    const accepted = tasks.filter((task) => task.acceptance !== undefined);
    expect(accepted.map((task) => task.id).sort()).toEqual(Object.keys(SOLUTIONS).sort());
    for (const task of accepted) for (const path of Object.keys(task.acceptance!.files)) expect(task.files[path]).toBeUndefined();
  });

  it.each(Object.keys(SOLUTIONS))('%s: fails on the untouched repository (whose own tests pass) and passes once the ticket is done', async (id) => {
    const task = tasks.find((candidate) => candidate.id === id)!;
    const { workspace, release } = await workspaces.open(loopTask(task, renderRulebook(rulebook)), `${id}-own`);
    const own = await workspace.runTaskTests().finally(release);
    expect(own?.exitCode).toBe(0);
    const untouched = await accept(task, {}, `${id}-untouched`);
    expect(untouched.executed).toBe(true);
    expect(untouched.exitCode).not.toBe(0);
    const done = await accept(task, SOLUTIONS[id]!, `${id}-done`);
    expect(done.exitCode, done.output.text).toBe(0);
  });
});
