import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rulebook, TaskInfo } from '@holdfast/core/contract';
import { treeBytes } from '../../sandbox/index.js';
import { LOOP_RULEBOOK, LOOP_TASK, MODULE, MODULE_WITH_LOG } from './test-support/scripted-agent.js';
import type { AgentPolicy } from './test-support/scripted-agent.js';
import { loopPlayer } from './test-support/loop-player.js';

const CAP = 1024 * 1024;

/** The loop task with a script a model's command could be: it writes 2 MB into the work tree. */
const TASK: TaskInfo = {
  ...LOOP_TASK,
  files: {
    ...LOOP_TASK.files,
    'scripts/fill.mjs':
      "import { mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('out', { recursive: true });\nwriteFileSync('out/blob.bin', Buffer.alloc(2 * 1024 * 1024, 120));\n",
  },
};
const RULEBOOK: Rulebook = { ...LOOP_RULEBOOK, sandbox: { allow: ['^npm (?:run )?test$', '^node scripts/fill\\.mjs$'], timeoutSeconds: 60 } };
const { play, parentDir } = loopPlayer({ rulebook: RULEBOOK, task: TASK, maxBytes: CAP });

/** The arm's repository is gone once released, and nothing the size of the cap is left in the run's folder. */
function expectNothingLeft(): void {
  const parent = parentDir();
  const [root] = readdirSync(parent);
  expect(readdirSync(join(parent, root!, 'arms'))).toEqual([]);
  expect(treeBytes(parent, Number.POSITIVE_INFINITY)).toBeLessThan(CAP);
}

describe('a loop arm over its sandbox’s size cap', () => {
  it('ends the session after a command that leaves the tree over the cap; the R4 violation landed before still counts', async () => {
    const policy: AgentPolicy = (turn) => {
      if (turn === 1) return { calls: [{ name: 'write_file', input: { path: 'src/features/refunds.ts', content: MODULE_WITH_LOG } }] };
      if (turn === 2) return { calls: [{ name: 'run_command', input: { command: 'node scripts/fill.mjs' } }] };
      if (turn === 3) return { calls: [{ name: 'write_file', input: { path: 'src/features/later.ts', content: MODULE } }] };
      return { text: 'Done.' };
    };
    const { result, requests } = await play('told', policy);
    expect(requests).toHaveLength(2);
    expect(result.session!.stop.reason).toBe('sandbox-cap');
    expect(result.session!.stop.detail).toMatch(/^sandbox over its 1 MB cap: the work tree holds more than \d+ bytes after the command/);
    expect(result.session!.calls.map((call) => call.tool)).toEqual(['write_file', 'run_command', 'holdfast:end-check']);
    expect(result.sandbox!.commands[0]).toMatchObject({ cmd: 'node scripts/fill.mjs', executed: true, exitCode: 0 });
    expect(result.sandbox!.commands[0]!.reason).toContain('It left the sandbox over its 1 MB cap');
    expect(result.verdict).toBe('violated');
    expect(result.reason).toContain('R4');
    expect(result.reason).toContain('The session ended at the sandbox-cap: sandbox over its 1 MB cap');
    expectNothingLeft();
  });

  it('refuses the write that would pass the cap, ends the session, and a clean arm is over-cap (a failure in n), the cap named E_SANDBOX_CAP', async () => {
    // Each reply stays under the reply cap (1,000,000 bytes); the tree passes 1 MB on the third turn.
    const part = 'y'.repeat(400 * 1024);
    const policy: AgentPolicy = (turn) => {
      if (turn === 1) return { calls: [{ name: 'write_file', input: { path: 'src/features/a.txt', content: part } }] };
      if (turn === 2)
        return {
          calls: [
            { name: 'write_file', input: { path: 'src/features/a.txt', content: part } },
            { name: 'write_file', input: { path: 'src/features/b.txt', content: part } },
          ],
        };
      if (turn === 3)
        return {
          calls: [
            { name: 'write_file', input: { path: 'src/features/c.txt', content: part } },
            { name: 'write_file', input: { path: 'src/features/d.txt', content: 'never\n' } },
          ],
        };
      return { text: 'Done.' };
    };
    const { result, requests } = await play('held', policy);
    expect(requests).toHaveLength(3);
    const calls = result.session!.calls;
    expect(calls.map((call) => call.isError)).toEqual([false, false, false, true]);
    expect(calls[3]!.output!.text).toMatch(/^Error: sandbox over its 1 MB cap: writing src\/features\/c\.txt \(409600 bytes\)/);
    expect(result.session!.stop.reason).toBe('sandbox-cap');
    expect(result.session!.taskDone).toBeUndefined();
    expect(result.verdict).toBe('over-cap');
    expect(result.error).toEqual({ code: 'E_SANDBOX_CAP', message: result.session!.stop.detail });
    expect(result.reason).toMatch(/^The session stopped after 4 tool calls: sandbox over its 1 MB cap/);
    expect(result.sandbox!.changedPaths).toEqual(['src/features/a.txt', 'src/features/b.txt']);
    expectNothingLeft();
  });
});
