import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: a test that waits on real processes (a gateway starting twelve source children)
    // is slow on a busy 2-core CI machine, not wrong. A hang still ends, with the test named.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One worker per core: the suite is CPU-bound (the gateways and children the journeys start),
    // and a third worker only adds contention and a third copy of every module.
    maxWorkers: 2,
    // Every file starts and stops its own gateways, servers, clocks and data directories in its
    // hooks and relies on no module-level state, so a worker keeps its module cache between files
    // instead of re-importing zod, the SDK, express and sql.js for each one.
    isolate: false,
    // One PostgreSQL server for the run, started by the first file that asks for a database.
    globalSetup: ['./test/globalSetup.ts'],
    reporters: ['default', './test/summaryReporter.ts'],
  },
});
