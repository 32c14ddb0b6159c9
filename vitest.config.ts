import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Generous: a test that waits on real processes (a gateway starting twelve source children)
    // is slow on a busy 2-core CI machine, not wrong. A hang still ends, with the test named.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most integration time is spent waiting on sockets and child processes, not on the CPU: three
    // workers keep two cores busy. Waits in tests are by readiness with generous limits, so a
    // loaded machine makes them slower, not flaky.
    maxWorkers: 3,
    reporters: ['default', './test/summaryReporter.ts'],
    projects: [
      // Unit and contract tests are pure (no sockets, no module-level state they rely on): a worker
      // keeps its module cache between their files instead of re-importing zod and the SDK each time.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/journeys/**/*.test.ts', 'test/reliability/**/*.test.ts'],
          // Every file starts its own gateways, servers and data directories and stops them in its
          // hooks; sharing a worker's module cache saves re-importing the SDK, express and sql.js per file.
          isolate: false,
        },
      },
    ],
  },
});
