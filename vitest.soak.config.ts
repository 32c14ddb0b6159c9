import { defineConfig } from 'vitest/config';

/** `npm run soak`: the kill -9 soak, too long for the `npm test` budget on a busy 2-core machine. */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.soak.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
