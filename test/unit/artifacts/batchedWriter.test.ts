import { describe, expect, it } from 'vitest';
import { BatchedWriter } from '../../../gateway/artifacts/batchedWriter.js';
import type { PartialFile } from '../../../gateway/core/index.js';

/** A part file in memory whose writes finish only when the test lets them (or fail on demand). */
function memoryPart(options: { failAt?: number } = {}) {
  const chunks: Buffer[] = [];
  const writes: number[] = [];
  let pending: Array<() => void> = [];
  let size = 0;
  let held = true;
  const part: PartialFile = {
    get sizeBytes() {
      return size;
    },
    existing: async function* () {},
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        pending.push(() => {
          if (options.failAt !== undefined && writes.length === options.failAt) return reject(new Error('disk full'));
          // Copied now: the writer reuses its buffers once a write is done.
          chunks.push(Buffer.from(chunk));
          writes.push(chunk.byteLength);
          size += chunk.byteLength;
          resolve();
        });
        if (!held) pending.shift()!();
      }),
    truncate: async () => {},
    close: async () => {},
  };
  /** Finishes the writes waiting now and those that follow while the test awaits. */
  const finishWrites = async () => {
    while (pending.length > 0) {
      const now = pending;
      pending = [];
      now.forEach((finish) => finish());
      await new Promise((r) => setImmediate(r));
    }
  };
  /** From now on every write finishes at once. */
  const release = () => {
    held = false;
    pending.splice(0).forEach((finish) => finish());
  };
  return { part, chunks, writes, finishWrites, release, inFlight: () => pending.length };
}

const bytes = (from: number, length: number) => Buffer.from(Array.from({ length }, (_, i) => (from + i) & 0xff));

describe('BatchedWriter', () => {
  it('writes chunks in order in full batches, one write in flight while the other buffer fills', async () => {
    const file = memoryPart();
    const writer = new BatchedWriter(file.part, 10);
    expect(writer.push(bytes(0, 4))).toBeUndefined();
    expect(writer.push(bytes(4, 4))).toBeUndefined();
    expect(file.inFlight()).toBe(0);
    // 4 + 4 + 4 > 10: the chunk is split, the full batch goes to disk, the spare buffer takes the rest.
    expect(writer.push(bytes(8, 4))).toBeUndefined();
    expect(file.inFlight()).toBe(1);
    expect(writer.push(bytes(12, 6))).toBeUndefined();
    // The spare buffer is full too while the first write is in flight: the caller is told to wait.
    const wait = writer.push(bytes(18, 5));
    expect(wait).toBeInstanceOf(Promise);
    await file.finishWrites();
    await wait;
    file.release();
    await writer.flush();
    expect(Buffer.concat(file.chunks)).toEqual(bytes(0, 23));
    expect(file.writes).toEqual([10, 10, 3]);
  });

  it('splits a chunk larger than a batch into full batches', async () => {
    const file = memoryPart();
    const writer = new BatchedWriter(file.part, 8);
    writer.push(bytes(0, 3));
    const wait = writer.push(bytes(3, 20));
    file.release();
    await wait;
    await writer.flush();
    expect(Buffer.concat(file.chunks)).toEqual(bytes(0, 23));
    expect(file.writes).toEqual([8, 8, 7]);
  });

  it('rethrows a failed write at the next push or flush, never as an unhandled rejection', async () => {
    const file = memoryPart({ failAt: 0 });
    const writer = new BatchedWriter(file.part, 4);
    writer.push(bytes(0, 4));
    await file.finishWrites();
    expect(() => writer.push(bytes(8, 1))).toThrow('disk full');
    await expect(writer.flush()).rejects.toThrow('disk full');
  });
});
