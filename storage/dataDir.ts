import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GatewayError } from '../gateway/core/index.js';

/**
 * Creates the data directory (and parents) readable by the owner only. An existing directory
 * that others may write to (world-writable or sticky, like /tmp) is refused with a message:
 * chmod-ing a shared directory would break everyone else's use of it, and the token and
 * database must not live where others can plant or swap files.
 */
export async function ensurePrivateDir(path: string): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing) refuseShared(path, existing);
  await mkdir(path, { recursive: true, mode: 0o700 });
  await chmod(path, 0o700);
}

function refuseShared(path: string, st: { mode: number; isDirectory(): boolean }): void {
  const choose = `Choose a directory of your own with --data-dir (SCIGATE_DATA_DIR), e.g. ${join(path, 'scigate')}.`;
  if (!st.isDirectory()) throw new GatewayError('invalid_input', `The data directory ${path} is not a directory. ${choose}`);
  const shared = (st.mode & 0o1000) !== 0 || (st.mode & 0o002) !== 0;
  if (shared) {
    const mode = (st.mode & 0o7777).toString(8);
    throw new GatewayError('invalid_input', `The data directory ${path} is shared (mode ${mode}: other users can create files in it); scigate will not change its mode. ${choose}`);
  }
}

/** Whether something exists at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
