import { createHash } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Cas } from '../gateway/core/index.js';
import { writeFileAtomic } from './atomicWrite.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Content-addressed blobs under `<root>/sha256/ab/<hash>`: immutable, written atomically. */
export class FileCas implements Cas {
  constructor(private readonly root: string) {}

  async put(bytes: Uint8Array): Promise<string> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(hash);
    if (await exists(path)) return hash;
    await mkdir(join(this.root, 'sha256', hash.slice(0, 2)), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, bytes);
    return hash;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (!SHA256_HEX.test(hash)) return undefined;
    return readFile(this.pathOf(hash)).catch((e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' ? undefined : Promise.reject(e),
    );
  }

  private pathOf(hash: string): string {
    return join(this.root, 'sha256', hash.slice(0, 2), hash);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
