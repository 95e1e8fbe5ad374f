// Which end-to-end files `npm test` (scripts/test.mjs) runs on its second Node line, with vitest itself on that
// line: Node 24, or Node 20 when npm runs on 24. Read by vitest.config.ts and vitest.second-line.config.ts.

/**
 * Run on both lines: these run holdfast inside vitest's own process (the CLI's verbs, the sandbox, the trials on
 * real toolchains, the web server), so only vitest's line can put them on another.
 */
export const IN_PROCESS_END_TO_END = [
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

/**
 * Run on the second line only, and left out of the first pass: about half of the gate's end-to-end files by time
 * (they start holdfast, its hook and git's hooks with vitest's node), so the gate's suite is split between the two
 * lines as the real-client sessions are, at no extra time. `vitest run` by hand still runs them on its own node.
 */
export const SECOND_LINE_ONLY = [
  'test/e2e/gate-exec-redteam.test.ts',
  'test/e2e/gate-state-layers.test.ts',
  'test/e2e/gate-person-commits.test.ts',
  'test/e2e/gate-between-calls.test.ts',
  'test/e2e/gate-unfinished-check.test.ts',
  'test/e2e/gate-opaque-tools.test.ts',
  'test/e2e/gate-deadline.test.ts',
  'test/e2e/hook-bundle.test.ts',
];
