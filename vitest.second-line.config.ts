import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm test`'s second Node line (scripts/test.mjs): the end-to-end files that run holdfast inside vitest's own
 * process, where the line is vitest's. The files that start holdfast, its hook and the agents as processes pick
 * their line per session (nodeOfLine in @holdfast/lab/test-support) and are not run again.
 */
const IN_PROCESS_END_TO_END = [
  'test/e2e/cli-agent-mode.test.ts',
  'test/e2e/cli-init.test.ts',
  'test/e2e/cli-loop.test.ts',
  'test/e2e/cli-queue.test.ts',
  'test/e2e/cli-run.test.ts',
  'test/e2e/commit-task-modes.test.ts',
  'test/e2e/package.test.ts',
  'test/e2e/rep-numbering.test.ts',
  'test/e2e/sandbox-run-commit-task.test.ts',
  'test/e2e/sandbox.test.ts',
  'test/e2e/trial-toolchains.test.ts',
  'test/e2e/web.test.ts',
];

// Replaced, not merged: vitest's mergeConfig would add these to the base's include.
export default defineConfig({ ...base, test: { ...base.test, include: IN_PROCESS_END_TO_END } });
