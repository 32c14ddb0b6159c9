import { open, readdir, rename, rm } from 'node:fs/promises';
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

/** The name `writeFileAtomic` gives the temp file of `<name>`: `.<name>.<12 hex digits>.tmp`. */
const TEMP_NAME = /^\.(.+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temp files `writeFileAtomic` left in `dir` for the files `ofFile` accepts (by name) and
 * returns their paths. A process killed between writing one and renaming it into place leaves it
 * behind: it never was the file's content (the rename is what makes it so), and nothing else ever
 * reads or removes it. Only files no other process may be writing at that moment are to be accepted.
 */
export async function removeLeftoverTemps(dir: string, ofFile: (name: string) => boolean): Promise<string[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
  const removed: string[] = [];
  for (const name of names) {
    const of = TEMP_NAME.exec(name)?.[1];
    if (of === undefined || !ofFile(of)) continue;
    await rm(join(dir, name), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}
