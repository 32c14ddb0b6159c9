import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
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
  await makeDirectories(path);
  await chmod(path, 0o700).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPERM' || existing === undefined) throw error;
    // Only its owner may chmod a directory: this one is another user's (a volume made by root, say).
    const uid = process.getuid?.();
    throw new GatewayError(
      'invalid_input',
      `The directory ${path} belongs to another user (uid ${existing.uid}), so scigate${uid === undefined ? '' : `, running as uid ${uid},`} cannot make it private. ` +
        `Give it to the user scigate runs as (chown -R ${uid ?? '<uid>'} ${path}), or choose a directory of your own with --data-dir (SCIGATE_DATA_DIR).`,
      { cause: error },
    );
  });
}

/**
 * mkdir of each missing directory on the way, one at a time: `mkdir({recursive: true})` on Node 20
 * spins forever under /proc, and its errors name only an inner path ("ENOTDIR … mkdir").
 */
async function makeDirectories(path: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(path); !(await pathExists(at)) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const dir of missing) {
    await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return;
      const why = error.code === 'ENOTDIR' ? 'a part of the path is a file' : error.code === 'EACCES' || error.code === 'EPERM' ? 'permission denied' : error.code === 'EROFS' ? 'read-only filesystem' : (error.code ?? error.message);
      throw new GatewayError('invalid_input', `Cannot create the directory ${path} (${why} at ${dir}). Choose a directory of your own with --data-dir (SCIGATE_DATA_DIR).`, { cause: error });
    });
  }
}

function refuseShared(path: string, st: { mode: number; isDirectory(): boolean }): void {
  if (!st.isDirectory()) {
    throw new GatewayError('invalid_input', `The data directory ${path} is a file, not a directory. Give --data-dir (SCIGATE_DATA_DIR) a directory (created if missing).`);
  }
  const choose = `Choose a directory of your own with --data-dir (SCIGATE_DATA_DIR), e.g. ${join(path, 'scigate')}.`;
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
