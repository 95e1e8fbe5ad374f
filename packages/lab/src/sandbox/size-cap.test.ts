import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Action, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { armAfterFailedLanding } from '../experiment/landing-failure.js';
import { createSandboxManager } from './manager.js';
import type { SandboxManager } from './manager.js';
import { treeBytes } from './size-budget.js';
import { FIXTURE_TASK, decide, requireIsolation, withAllowlist } from './test-support.js';

const CAP = 1024 * 1024;

/** The fixture with a script that writes `bytes` into the work tree, as a model's command could. */
const TASK: TaskInfo = {
  ...FIXTURE_TASK,
  files: {
    ...FIXTURE_TASK.files,
    'scripts/fill.mjs':
      "import { mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('out', { recursive: true });\nwriteFileSync('out/blob.bin', Buffer.alloc(2 * 1024 * 1024, 120));\n",
  },
};

let rulebook: Rulebook;
let parent: string;
let manager: SandboxManager | undefined;

beforeAll(async () => {
  await requireIsolation();
  rulebook = withAllowlist(await loadRulebook(), ['^npm (?:run )?test$', '^node scripts/[a-z]+\\.mjs$']);
  parent = mkdtempSync(join(tmpdir(), 'holdfast-size-cap-test-'));
});

afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

afterAll(() => rmSync(parent, { recursive: true, force: true }));

async function open(maxBytes = CAP): Promise<SandboxManager> {
  manager = await createSandboxManager({ rulebook, parentDir: parent, maxBytes });
  return manager;
}

/** Nothing of the arm is left: no round folder, nothing near the cap anywhere under the run's root. */
function expectNothingLeft(sandboxes: SandboxManager): void {
  expect(sandboxes.liveCount()).toBe(0);
  expect(readdirSync(join(sandboxes.root, 'rounds'))).toEqual([]);
  expect(treeBytes(sandboxes.root, Number.POSITIVE_INFINITY)).toBeLessThan(CAP);
}

const big = 'x'.repeat(CAP + 1);
const module = 'export const total = (items: number[]): number => items.reduce((sum, item) => sum + item, 0);\n';
const loggingTest = "import { total } from './total.ts';\nconsole.log(total([1, 2]));\n";

describe('a sandbox over its size cap', () => {
  it('refuses the write that would pass the cap, stops the landing, and the told arm’s landed R4 violation still counts', async () => {
    const sandboxes = await open();
    const actions: Action[] = [
      { type: 'write', path: 'src/features/total.ts', content: module },
      { type: 'write', path: 'src/features/total.test.ts', content: loggingTest },
      { type: 'write', path: 'src/features/blob.txt', content: big },
      { type: 'commit', message: 'Add total' },
    ];
    const told = await decide('told', actions, rulebook, TASK);
    expect(told.verdict).toBe('violated');
    const landing = await sandboxes.land({ task: TASK, roundId: 'r/1', arm: 'told', result: told });
    expect(landing.failure).toMatchObject({ index: 2, code: 'E_SANDBOX_CAP' });
    expect(landing.failure!.message).toMatch(/^sandbox over its 1 MB cap: writing src\/features\/blob\.txt \(1048577 bytes\)/);
    expect(landing.result.actions.map((outcome) => outcome.landed?.state)).toEqual(['done', 'done', 'refused', undefined]);
    expect(landing.result.actions[2]!.landed!.detail).toContain('sandbox over its 1 MB cap');
    expect(landing.result.sandbox!.commits).toEqual([]);
    expect(landing.result.sandbox!.changedPaths).toEqual(['src/features/total.test.ts', 'src/features/total.ts']);
    const judged = armAfterFailedLanding(told, { ...landing, failure: landing.failure! });
    expect(judged.verdict).toBe('violated');
    expect(judged.reason).toContain('R4');
    expect(judged.reason).toContain('sandbox over its 1 MB cap');
    expect(judged.error?.code).toBe('E_SANDBOX_CAP');
    expectNothingLeft(sandboxes);
  });

  it('makes a clean arm whose write passes the cap over-cap (a failure in n, not an error), counting every write so far', async () => {
    const sandboxes = await open();
    const half = 'y'.repeat(600 * 1024);
    const actions: Action[] = [
      { type: 'write', path: 'src/features/a.txt', content: half },
      { type: 'write', path: 'src/features/a.txt', content: half },
      { type: 'write', path: 'src/features/b.txt', content: half },
    ];
    const held = await decide('held', actions, rulebook, TASK);
    expect(held.verdict).toBe('clean');
    const landing = await sandboxes.land({ task: TASK, roundId: 'r/1', arm: 'held', result: held });
    // Rewriting a file replaces its bytes; a second file adds to them.
    expect(landing.result.actions.map((outcome) => outcome.landed?.state)).toEqual(['done', 'done', 'refused']);
    expect(landing.failure).toMatchObject({ index: 2, code: 'E_SANDBOX_CAP' });
    const judged = armAfterFailedLanding(held, { ...landing, failure: landing.failure! });
    expect(judged.verdict).toBe('over-cap');
    expect(judged.reason).toBe(`The arm stopped at action 2: ${landing.failure!.message}. Counted as a failure of the arm, not as an error.`);
    expect(judged.error).toEqual({ code: 'E_SANDBOX_CAP', message: landing.failure!.message });
    expectNothingLeft(sandboxes);
  });

  it('stops the landing after a command that leaves the tree over the cap, does not stage it to diff, and keeps the R3 violation landed before', async () => {
    const sandboxes = await open();
    const actions: Action[] = [
      { type: 'write', path: 'src/features/total.ts', content: module },
      { type: 'run', cmd: 'node scripts/fill.mjs' },
      { type: 'write', path: 'src/features/after.txt', content: 'never\n' },
    ];
    const told = await decide('told', actions, rulebook, TASK);
    const landing = await sandboxes.land({ task: TASK, roundId: 'r/1', arm: 'told', result: told });
    expect(landing.result.sandbox!.commands).toEqual([expect.objectContaining({ index: 1, executed: true, exitCode: 0 })]);
    expect(landing.failure).toMatchObject({ index: 1, code: 'E_SANDBOX_CAP' });
    expect(landing.failure!.message).toMatch(/^sandbox over its 1 MB cap: the work tree holds more than \d+ bytes after the command/);
    expect(landing.result.actions.map((outcome) => outcome.landed?.state)).toEqual(['done', 'done', undefined]);
    expect(landing.result.actions[1]!.landed!.detail).toMatch(/^Exited with code 0\. It left the sandbox over its 1 MB cap/);
    expect(landing.result.sandbox!.diff).toEqual({ text: '', truncated: false, bytes: 0 });
    expect(told.verdict).toBe('violated');
    const judged = armAfterFailedLanding(told, { ...landing, failure: landing.failure! });
    expect(judged.verdict).toBe('violated');
    expect(judged.reason).toMatch(/R3.*Then the sandbox hit an error at action 1: sandbox over its 1 MB cap/s);
    expectNothingLeft(sandboxes);
  });

  it('lands the same actions when the cap allows them', async () => {
    const sandboxes = await open(4 * CAP);
    const actions: Action[] = [
      { type: 'write', path: 'src/features/blob.txt', content: big },
      { type: 'run', cmd: 'node scripts/fill.mjs' },
    ];
    const told = await decide('told', actions, rulebook, TASK);
    const landing = await sandboxes.land({ task: TASK, roundId: 'r/1', arm: 'told', result: told });
    expect(landing.failure).toBeUndefined();
    expect(landing.result.actions.map((outcome) => outcome.landed?.state)).toEqual(['done', 'done']);
    expect(landing.result.sandbox!.changedPaths).toEqual(['out/blob.bin', 'src/features/blob.txt']);
  });
});
