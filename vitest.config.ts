import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/summaryReporter.ts'],
    projects: [
      // Unit and contract tests are pure (no sockets, no module-level state they rely on): a worker
      // keeps its module cache between their files instead of re-importing zod and the SDK each time.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts', 'test/journeys/**/*.test.ts'] } },
    ],
  },
});
