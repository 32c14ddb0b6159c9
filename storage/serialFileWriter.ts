import { writeFileAtomic } from './atomicWrite.js';

/**
 * Replaces one file atomically, one write at a time in call order (so the last save wins), and
 * closes by waiting for the write in flight: after `close()` nothing more lands in the data
 * directory, so a stopped gateway's directory can be moved or removed at once.
 */
export class SerialFileWriter {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly path: string) {}

  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.path} was not saved: the gateway is shutting down.`));
    const write = this.queue.then(() => writeFileAtomic(this.path, bytes));
    this.queue = write.catch(() => {});
    return write;
  }

  /** Refuses later writes and resolves once the queued ones are on disk (or failed). */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
  }
}
