import { configDefaults, defineConfig } from 'vitest/config';
import { SECOND_LINE_ONLY } from './scripts/test-lines.mjs';
import { workspaceAliases } from './scripts/workspace-aliases.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/web/**/*.test.ts', 'bench/src/**/*.test.ts', 'test/**/*.test.ts'],
    // npm test's first pass leaves out what its second pass runs on the other Node line only (scripts/test-lines.mjs).
    exclude: [...configDefaults.exclude, ...(process.env.HOLDFAST_TEST_PASS === 'first' ? SECOND_LINE_ONLY : [])],
    // A current build first (tests run the built command and hook), then system programs (Chromium,
    // git, bubblewrap), then the real agents into their cache.
    globalSetup: ['test/setup/fresh-dist.ts', 'test/setup/system-tools.ts', 'test/setup/agent-clients.ts', 'test/setup/sealed-mirrors.ts'],
    setupFiles: ['test/setup/seal-home.ts'],
    pool: 'forks',
    // One file per core, not vitest's default of one core left idle: most of an end-to-end file's time is spent
    // waiting on the processes it drives (git, the agents, Chromium), so on a 2-core runner a second file fills it.
    maxWorkers: '100%',
    // A hang detector, not a margin: tests drive git, real agents and browsers, whose time is what the
    // machine's load makes it (a 2-core CI runner under load took 5x the idle time); none asserts on time.
    testTimeout: 300_000,
    // No fixed limit on hooks: their work (building, starting servers and browsers, removing trees) takes what the
    // machine's load makes it take; a hook waits for the state it sets up, and CI's own time limit stops a hung one.
    hookTimeout: 0,
    // expect.poll waits for a state the code brings about; its 1 s default is a wall-clock margin a loaded machine
    // passes. The longest delay setTimeout takes (about 24 days): the test's own time limit bounds the wait.
    expect: { poll: { timeout: 2_147_483_647 } },
  },
});
