import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    // System programs first (Chromium, git, bubblewrap), then the real agents into their cache.
    globalSetup: ['test/setup/system-tools.ts', 'test/setup/agent-clients.ts'],
    pool: 'forks',
    testTimeout: 20_000,
  },
});
