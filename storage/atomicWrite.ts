import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Owner-only permissions for every file scigate writes. */
export const FILE_MODE = 0o600;

/**
 * Replaces `path` with `data` so that a crash leaves either the old or the new file:
 * temp file in the same directory → fsync → rename → fsync of the directory. A write that fails
 * removes its temp file: on a full disk the part written would otherwise keep the very space the
 * next write (a journal line, a checkpoint once room is made) needs, in a hidden file nothing reads.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', FILE_MODE);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  await fsyncDirectory(dir);
}

/** Makes a rename or a new file in `dir` durable. */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
