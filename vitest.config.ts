import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    globalSetup: ['test/setup/agent-clients.ts'],
  },
});
