import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // *.e2e.ts: the built dashboard in Chromium against a real server (tests/e2e/harness.ts builds it if stale).
    include: ['tests/**/*.test.ts', 'tests/**/*.e2e.ts'],
    // Hands workers a place to share the PostgreSQL and Swift that hosted tests start on first use.
    globalSetup: ['tests/helpers/hosted/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
