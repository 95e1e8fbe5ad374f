import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    // A current dist/ first (tests run the built command and hook), then system programs (Chromium,
    // git, bubblewrap), then the real agents into their cache.
    globalSetup: ['test/setup/fresh-dist.ts', 'test/setup/system-tools.ts', 'test/setup/agent-clients.ts'],
    pool: 'forks',
    testTimeout: 20_000,
  },
});
