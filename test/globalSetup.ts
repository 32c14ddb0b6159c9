import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One scratch directory for the whole test run, for what every worker may share (the PostgreSQL
 * cluster template of test/fixtures/postgres.ts), removed when the run ends. The workers are forked
 * after this runs, so they inherit the variable.
 */
export async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-run-'));
  // Servers that run as another user (Debian's postgres, when the tests run as root) read from it.
  await chmod(dir, 0o755);
  process.env.SCIGATE_TEST_SCRATCH = dir;
  return () => rm(dir, { recursive: true, force: true });
}
