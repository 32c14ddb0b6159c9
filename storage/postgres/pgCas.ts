import { sha256Hex, type Cas } from '../../gateway/core/index.js';
import { SHA256_HEX } from '../fileCas.js';
import type { PgDatabase } from './pgDatabase.js';

/** Hashes known to be stored; bounded so a long-running gateway does not grow without limit. */
const MAX_KNOWN = 100_000;

/**
 * Content-addressed blobs in `cas_blobs` (bytea, keyed by sha256 hex). A blob is stored once: the
 * insert does nothing when the hash is there, so replicas writing the same bytes at once agree.
 */
export class PgCas implements Cas {
  private readonly known = new Set<string>();

  constructor(private readonly db: PgDatabase) {}

  /** Blobs being written: readable at once by this process, as its Invocation rows are. */
  private readonly writing = new Map<string, Buffer>();

  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    if (this.known.has(hash)) return hash;
    const buffer = Buffer.from(bytes);
    this.writing.set(hash, buffer);
    try {
      await this.db.write('INSERT INTO cas_blobs (hash, bytes, size_bytes) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING', [hash, buffer, bytes.byteLength]);
    } finally {
      this.writing.delete(hash);
    }
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.add(hash);
    return hash;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (!SHA256_HEX.test(hash)) return undefined;
    const writing = this.writing.get(hash);
    if (writing) return writing;
    const row = (await this.db.all('SELECT bytes FROM cas_blobs WHERE hash = ?', [hash]))[0];
    return row ? (row.bytes as Buffer) : undefined;
  }
}
