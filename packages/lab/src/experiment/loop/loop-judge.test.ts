import { describe, expect, it } from 'vitest';
import { defaultRulebook } from '@holdfast/core/test-support';
import { FRESH_LEDGER, judgeCall, nextLedger, testCommandPattern } from './loop-judge.js';
import type { SessionLedger } from './loop-judge.js';

const pattern = testCommandPattern(defaultRulebook);
const baseFiles = new Set(['src/lib/http.ts', 'package.json']);
const files = new Map<string, string>();
const read = (path: string) => files.get(path);

function after(ledger: SessionLedger, ...steps: ({ write: string } | { test: boolean })[]): SessionLedger {
  let current = ledger;
  for (const step of steps) {
    if ('write' in step) {
      files.set(step.write, 'export const x = 1;\n');
      current = nextLedger(
        current,
        { actions: [{ type: 'write', path: step.write, content: 'export const x = 1;\n' }], existedBefore: (path) => baseFiles.has(path) },
        pattern,
      );
    } else {
      current = nextLedger(current, { actions: [{ type: 'run', cmd: 'npm test' }], existedBefore: () => true, testPassed: step.test }, pattern);
    }
  }
  return current;
}

const commit = [{ type: 'commit' as const, message: 'x' }];

describe('judging one call of a session', () => {
  it('does not judge R3 at a write: the test may come in a later call', async () => {
    const checks = await judgeCall({
      actions: [{ type: 'write', path: 'src/new.ts', content: 'export const y = 2;\n' }],
      ledger: FRESH_LEDGER,
      rulebook: defaultRulebook,
      baseFiles,
      read,
    });
    expect(checks).toEqual([]);
  });

  it('a commit after a passing test run with no change since is allowed', async () => {
    files.clear();
    const ledger = after(FRESH_LEDGER, { write: 'src/a.ts' }, { write: 'src/a.test.ts' }, { test: true });
    expect(await judgeCall({ actions: commit, ledger, rulebook: defaultRulebook, baseFiles, read })).toEqual([]);
  });

  it('only a passing run counts for R6, and the refusal says the run failed', async () => {
    files.clear();
    const ledger = after(FRESH_LEDGER, { write: 'src/a.ts' }, { write: 'src/a.test.ts' }, { test: false });
    const checks = await judgeCall({ actions: commit, ledger, rulebook: defaultRulebook, baseFiles, read });
    expect(checks.map((check) => check.rule)).toEqual(['R6']);
    expect(checks[0]?.detail).toContain('this commit');
    expect(checks[0]?.detail).not.toMatch(/action \d/);
    expect(checks[0]?.detail).toContain('failed; only a passing run counts');
  });

  it('a change after the passing run needs another run before the commit', async () => {
    files.clear();
    const ledger = after(FRESH_LEDGER, { write: 'src/a.ts' }, { write: 'src/a.test.ts' }, { test: true }, { write: 'src/a.ts' });
    const checks = await judgeCall({ actions: commit, ledger, rulebook: defaultRulebook, baseFiles, read });
    expect(checks.map((check) => check.rule)).toEqual(['R6']);
  });

  it('a commit carrying a module the session created without its test fails R3, naming the module', async () => {
    files.clear();
    const ledger = after(FRESH_LEDGER, { write: 'src/a.ts' }, { test: true });
    const checks = await judgeCall({ actions: commit, ledger, rulebook: defaultRulebook, baseFiles, read });
    expect(checks.map((check) => [check.rule, check.actionIndex])).toEqual([['R3', 0]]);
    expect(checks[0]?.detail).toContain('"src/a.ts"');
  });
});
