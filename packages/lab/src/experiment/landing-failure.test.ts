import { describe, expect, it } from 'vitest';
import type { Action } from '@holdfast/core/contract';
import { checkActions, loadRulebook } from '@holdfast/core/rules';
import { holdArm, tellArm } from './arm.js';
import { armAfterFailedLanding } from './landing-failure.js';

const actions: Action[] = [
  { type: 'write', path: 'src/a.ts', content: 'export const a = 1;\n' },
  { type: 'write', path: 'src/a.test.ts', content: 'console.log("a");\n' },
  { type: 'run', cmd: 'npm test' },
];

async function arms() {
  const rulebook = await loadRulebook();
  const checks = await checkActions(actions, [], rulebook);
  const parsed = { kind: 'actions', method: 'json', actions } as const;
  return { told: tellArm({ parsed, checks }), held: await holdArm({ parsed, checks, rulebook }) };
}

const diffFailure = { code: 'E_SANDBOX', message: 'git diff failed: stdout maxBuffer length exceeded' };

describe('an arm whose landing failed', () => {
  it('keeps the told arm’s R4 violation when the sandbox failed after it landed (the diff of a huge file)', async () => {
    const { told } = await arms();
    expect(told.verdict).toBe('violated');
    for (const failure of [diffFailure, { ...diffFailure, index: 2 }]) {
      const after = armAfterFailedLanding(told, { result: told, failure });
      expect(after.verdict).toBe('violated');
      expect(after.error?.message).toContain('maxBuffer');
      expect(after.reason).toContain('R4');
    }
  });

  it('keeps the held arm blocked when the failure came after the block', async () => {
    const { held } = await arms();
    expect(held.verdict).toBe('blocked');
    expect(armAfterFailedLanding(held, { result: held, failure: diffFailure }).verdict).toBe('blocked');
  });

  it('is an error when the sandbox failed before the violation landed', async () => {
    const { told } = await arms();
    expect(armAfterFailedLanding(told, { result: told, failure: { ...diffFailure, index: 0 } }).verdict).toBe('error');
    expect(armAfterFailedLanding(told, { result: told, failure: { ...diffFailure, index: 1 } }).verdict).toBe('error');
  });
});
