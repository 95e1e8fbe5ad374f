import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Re-records fixtures/traffic with the real agent clients (see fixtures/traffic/README.md).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/record/*.record.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    globalSetup: ['test/setup/agent-clients.ts'],
  },
});
