import { chmod, mkdir, stat } from 'node:fs/promises';

/** Creates the data directory (and parents) readable by the owner only. */
export async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  await chmod(path, 0o700);
}

/** Whether something exists at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
