import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex, type Cas } from '../gateway/core/index.js';
import { writeFileAtomic } from './atomicWrite.js';
import { pathExists } from './dataDir.js';

export const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Hashes known to be on disk; bounded so a long-running gateway does not grow without limit. */
const MAX_KNOWN = 100_000;

/** Content-addressed blobs under `<root>/sha256/ab/<hash>`: immutable, written atomically. */
export class FileCas implements Cas {
  private readonly known = new Set<string>();
  private readonly fanOutDirs = new Set<string>();
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly root: string) {}

  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    if (this.known.has(hash)) return hash;
    // Two calls storing the same new bytes at once share one write.
    let write = this.writing.get(hash);
    if (!write) {
      write = this.write(hash, bytes).finally(() => this.writing.delete(hash));
      this.writing.set(hash, write);
    }
    await write;
    return hash;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (!SHA256_HEX.test(hash)) return undefined;
    return readFile(this.pathOf(hash)).catch((e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' ? undefined : Promise.reject(e),
    );
  }

  private async write(hash: string, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(hash);
    if (!(await pathExists(path))) {
      const dir = join(this.root, 'sha256', hash.slice(0, 2));
      if (!this.fanOutDirs.has(dir)) {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        this.fanOutDirs.add(dir);
      }
      await writeFileAtomic(path, bytes);
    }
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.add(hash);
  }

  private pathOf(hash: string): string {
    return join(this.root, 'sha256', hash.slice(0, 2), hash);
  }
}
