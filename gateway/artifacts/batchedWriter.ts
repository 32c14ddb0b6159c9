import type { PartialFile } from '../core/index.js';

/**
 * Writes a download's chunks (16–64 KiB from the socket) to its part file in batches through two
 * buffers allocated once: one fills while the other is being written, so receiving and writing
 * overlap, nothing is allocated per chunk and memory stays at two batches.
 */
export class BatchedWriter {
  private filling: Buffer;
  private spare: Buffer;
  private filled = 0;
  private writing: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly part: PartialFile,
    batchBytes: number,
  ) {
    this.filling = Buffer.allocUnsafe(batchBytes);
    this.spare = Buffer.allocUnsafe(batchBytes);
  }

  /**
   * Takes one chunk (copied: the caller may reuse it), splitting it across batches so that every
   * write but the last is exactly one batch. Returns a promise only when the caller should wait
   * before the next chunk (both buffers busy); it rejects when a write failed.
   */
  push(chunk: Uint8Array): Promise<void> | undefined {
    this.throwIfFailed();
    let offset = 0;
    while (offset < chunk.byteLength) {
      if (this.filled === this.filling.length) {
        if (this.writing) {
          const rest = chunk.subarray(offset);
          return this.writing.then(() => this.push(rest));
        }
        this.writeFilling();
      }
      const take = Math.min(this.filling.length - this.filled, chunk.byteLength - offset);
      this.filling.set(offset === 0 && take === chunk.byteLength ? chunk : chunk.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
    }
    // A full batch goes to disk at once when the other buffer is free.
    if (this.filled === this.filling.length && !this.writing) this.writeFilling();
    return undefined;
  }

  /** Writes everything taken so far; resolves once it is all in the part file, rejects when a write failed. */
  async flush(): Promise<void> {
    await this.writing;
    this.throwIfFailed();
    if (this.filled === 0) return;
    this.writeFilling();
    await this.writing;
    this.throwIfFailed();
  }

  /** Starts writing the filled buffer and swaps in the spare one (only when no write is in flight). */
  private writeFilling(): void {
    if (this.filled === 0) return;
    const bytes = this.filling.subarray(0, this.filled);
    [this.filling, this.spare] = [this.spare, this.filling];
    this.filled = 0;
    this.track(this.part.write(bytes));
  }

  /** The write in flight never rejects (nobody may be waiting for it); a failure is rethrown by the next push or flush. */
  private track(write: Promise<void>): void {
    const writing: Promise<void> = write.then(
      () => {
        if (this.writing === writing) this.writing = undefined;
      },
      (error: unknown) => {
        this.failure ??= { error };
        if (this.writing === writing) this.writing = undefined;
      },
    );
    this.writing = writing;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
