import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { checkActions } from '@holdfast/core/rules';
import { defaultRulebookPath, loadRulebook } from '@holdfast/core/rules';
import { hookEntryPath } from '../exec/index.js';
import { CONTENT_MAX_BYTES, IN_PROCESS_MAX_BYTES, boundedCheckActions } from './bounded-check.js';
import type { CheckBudget } from './bounded-check.js';

const SHIPPED = defaultRulebookPath();

const CHILD = { command: process.execPath, args: [hookEntryPath(), '--check-child'] };
/** A budget that never runs out on any machine: these cases are about where the check runs, not when it ends. */
const AMPLE: CheckBudget = { deadlineAt: Number.MAX_SAFE_INTEGER, now: Date.now, child: CHILD };

function write(path: string, content: string): Action {
  return { type: 'write', path, content };
}

describe('the rules under a hook deadline', () => {
  it('refuses unread, by every rule, a call that writes more than the limit', async () => {
    const rulebook = await loadRulebook(SHIPPED);
    const inner = vi.fn(checkActions);
    const results = await boundedCheckActions(inner, AMPLE)([write('src/big.ts', 'x'.repeat(CONTENT_MAX_BYTES + 1))], [], rulebook);
    expect(inner).not.toHaveBeenCalled();
    expect(results.map((result) => result.rule)).toEqual(rulebook.rules.map((rule) => rule.id));
    expect(results.every((result) => !result.ok && /over the gate's limit of 4.0 MB/.test(result.detail))).toBe(true);
  });

  it('checks small content in its own process, and more content in a child, with the same results', async () => {
    const rulebook = await loadRulebook(SHIPPED);
    const small = [write('src/a.ts', 'console.log(1);\nconst key = "AKIAIOSFODNN7EXAMPLE";\n')];
    const large = [write('src/b.ts', `${'export const a = 1;\n'.repeat(IN_PROCESS_MAX_BYTES / 10)}console.log(2);\n`), write('../outside.ts', 'x')];
    const inner = vi.fn(checkActions);
    const bounded = boundedCheckActions(inner, AMPLE);
    expect(await bounded(small, ['src/x.ts'], rulebook)).toEqual(await checkActions(small, ['src/x.ts'], rulebook));
    expect(inner).toHaveBeenCalledTimes(1);
    const inChild = await bounded(large, ['src/x.ts'], rulebook);
    expect(inner).toHaveBeenCalledTimes(1);
    expect(inChild).toEqual(await checkActions(large, ['src/x.ts'], rulebook));
    expect(inChild.filter((result) => !result.ok).map((result) => result.rule)).toEqual(expect.arrayContaining(['R2', 'R4']));
  });

  it('refuses when the check does not finish in time, and leaves nothing it started running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'holdfast-bounded-'));
    const pids = join(dir, 'pids');
    // A team's check that starts a helper and then never answers: only the budget can end it.
    writeFileSync(
      join(dir, 'slow.mjs'),
      `import { spawn } from 'node:child_process';\nimport { appendFileSync } from 'node:fs';\nexport function check() {\n  const helper = spawn('sleep', ['600'], { stdio: 'ignore' });\n  appendFileSync(${JSON.stringify(pids)}, process.pid + ' ' + helper.pid + '\\n');\n  for (;;) {}\n}\n`,
    );
    const rulebook: Rulebook = {
      version: 1,
      rules: [
        {
          id: 'SLOW',
          name: 'SLOW',
          prose: 'A check that never ends.',
          check: { kind: 'custom', module: join(dir, 'slow.mjs'), timeoutMs: 600_000, memoryMb: 128 },
        },
      ],
    } as unknown as Rulebook;
    // The clock runs out only once the team's check is known to be running, so the refusal races no clock.
    const startClock = (expire: () => void): (() => void) => {
      // The file exists from the moment the check opens it to append; only its finished line says both are running.
      const poll = setInterval(() => {
        if (existsSync(pids) && readFileSync(pids, 'utf8').endsWith('\n')) expire();
      }, 20);
      return () => clearInterval(poll);
    };
    const results = await boundedCheckActions(checkActions, { deadlineAt: Date.now() + 60_000, now: Date.now, child: CHILD, startClock })(
      [write('src/a.ts', 'x')],
      [],
      rulebook,
    );
    expect(results).toEqual([
      expect.objectContaining({
        rule: 'SLOW',
        ok: false,
        detail: expect.stringMatching(/could not finish judging this call within the hook's deadline/) as unknown,
      }),
    ]);
    const started = readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number);
    expect(started).toHaveLength(2);
    await vi.waitFor(() => expect(started.filter(alive)).toEqual([]), { timeout: 2_147_483_647, interval: 50 });
  });
});

/** Whether a process is still there and not a zombie awaiting its parent. */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
