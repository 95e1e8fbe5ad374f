import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { createSandboxManager } from './manager.js';
import { FIXTURE_TASK, decide } from './test-support.js';

let rulebook: Rulebook;
let parent: string;
beforeAll(async () => {
  rulebook = await loadRulebook();
  parent = mkdtempSync(join(tmpdir(), 'holdfast-keep-failed-'));
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('--keep-sandboxes', () => {
  it('keeps the arm whose landing failed, with what landed before the failure', async () => {
    const keepDir = mkdtempSync(join(tmpdir(), 'holdfast-keep-'));
    const actions: Action[] = [
      { type: 'write', path: 'src/features/noisy.ts', content: 'console.log("noisy");\n' },
      { type: 'write', path: `src/${'n'.repeat(300)}.ts`, content: 'export const y = 1;\n' },
    ];
    try {
      const sandboxes = await createSandboxManager({ rulebook, parentDir: parent, keepDir });
      const landing = await sandboxes.land({ task: FIXTURE_TASK, roundId: 'target/task/0', arm: 'told', result: await decide('told', actions, rulebook) });
      await sandboxes.dispose();
      expect(landing.failure).toBeDefined();
      const kept = landing.result.sandbox!.keptAt!;
      expect(kept).toBe(join(keepDir, 'target_task_0', 'told'));
      expect(readFileSync(join(kept, 'src/features/noisy.ts'), 'utf8')).toContain('console.log');
      expect(existsSync(join(kept, '.git'))).toBe(true);
    } finally {
      rmSync(keepDir, { recursive: true, force: true });
    }
  });
});
