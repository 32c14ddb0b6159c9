import { sha256Hex, type Cas } from '../../gateway/core/index.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Content-addressed blobs in memory. */
export class MemoryCas implements Cas {
  protected readonly byHash = new Map<string, Buffer>();

  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    if (!this.byHash.has(hash)) this.byHash.set(hash, Buffer.from(bytes));
    return hash;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (!SHA256_HEX.test(hash)) return undefined;
    const blob = this.byHash.get(hash);
    return blob && Buffer.from(blob);
  }
}
