import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { EventHub, GatewayError, randomId, silentLogger, systemClock } from '../../gateway/core/index.js';
import { PaperExtractions, resolveExtractionLimits, type PdfWorkers } from '../../gateway/extraction/index.js';
import { FileWorkspace, openMemoryStorage } from '../../storage/index.js';
import { newSession } from '../fixtures/permissionDoubles.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

/** Workers that never answer: the one extraction that gets the slot holds it until it is cancelled. */
const silentWorkers: PdfWorkers = {
  take: () => new Worker('setInterval(() => {}, 1000);', { eval: true }),
  release: (worker) => void worker.terminate(),
  close: async () => {},
};

/** A file that starts and ends like a PDF, `mebibytes` long, distinct per `n` (so each call is its own job). */
function bigPdfLike(n: number, mebibytes: number): Buffer {
  const bytes = Buffer.alloc(mebibytes * MiB, 0x20);
  bytes.write(`%PDF-1.7\n% ${n}\n`, 0, 'latin1');
  bytes.write('\n%%EOF\n', bytes.length - 7, 'latin1');
  return bytes;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One extraction slot over a real workspace directory, with workers that never answer. */
async function service() {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-extraction-queue-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const storage = openMemoryStorage();
  const workspace = new FileWorkspace(dir);
  const extractions = new PaperExtractions({
    store: storage.extractions, artifacts: storage.artifacts, workspace, events: new EventHub(), clock: systemClock, newId: randomId, log: silentLogger,
    limits: resolveExtractionLimits({ timeoutMs: 120_000 }), workers: silentWorkers, concurrency: 1, queueTimeoutMs: 120_000,
  });
  return { workspace, extractions, session: newSession({ id: 'ses_queue' }) };
}

describe('PaperExtractions: calls that wait', () => {
  it('for a slot hold none of their PDF bytes (memory stays bounded by the running extractions)', async () => {
    const { workspace, extractions, session } = await service();
    const waiting = 6;
    const size = 16;
    for (let n = 0; n <= waiting; n++) {
      const bytes = bigPdfLike(n, size);
      await workspace.writeFile(session.id, `p${n}.pdf`, (async function* () { yield bytes; })(), { maxBytes: bytes.length });
    }
    const controller = new AbortController();
    const call = (n: number) => extractions.extract({ session, invocationId: randomId('inv'), path: `p${n}.pdf`, signal: controller.signal }).catch((e: unknown) => e);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    const first = call(0);
    await expect.poll(async () => (await extractions.listJobs(session.id)).map((j) => j.status), { timeout: 60_000 }).toEqual(['running']);
    const queued = Array.from({ length: waiting }, (_, i) => call(i + 1));
    await expect.poll(async () => (await extractions.listJobs(session.id)).filter((j) => j.status === 'queued').length, { timeout: 60_000 }).toBe(waiting);
    gc();
    const held = process.memoryUsage().arrayBuffers - before;
    controller.abort();
    for (const ended of await Promise.all([first, ...queued])) expect(ended).toBeInstanceOf(GatewayError);
    // The running extraction holds its PDF and the copy its worker was sent (2 × 16 MiB); the six
    // waiting would hold 96 MiB more. The bound sits halfway, above what the rest of this process
    // allocates meanwhile (up to ~20 MiB on a loaded machine).
    expect(held / MiB).toBeLessThan(2 * size + (waiting * size) / 2);
  });

  it('for an earlier call on the same bytes end at once when cancelled, creating no job', async () => {
    const { workspace, extractions, session } = await service();
    const bytes = bigPdfLike(0, 1);
    for (const path of ['a.pdf', 'b.pdf']) await workspace.writeFile(session.id, path, (async function* () { yield bytes; })(), { maxBytes: bytes.length });
    const first = new AbortController();
    const running = extractions.extract({ session, invocationId: randomId('inv'), path: 'a.pdf', signal: first.signal }).catch((e: unknown) => e);
    await expect.poll(async () => (await extractions.listJobs(session.id)).map((j) => j.status), { timeout: 60_000 }).toEqual(['running']);
    const second = new AbortController();
    const waiting = extractions.extract({ session, invocationId: randomId('inv'), path: 'b.pdf', signal: second.signal }).catch((e: unknown) => e);
    // Waiting on the first call's promise (it holds the only slot, and its worker never answers).
    await new Promise((resolve) => setTimeout(resolve, 200));
    second.abort();
    const ended = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000))]);
    expect(ended).toMatchObject({ code: 'cancelled' });
    first.abort();
    expect(await running).toMatchObject({ code: 'cancelled' });
    expect((await extractions.listJobs(session.id)).map((j) => [j.pdfPath, j.status])).toEqual([['a.pdf', 'cancelled']]);
  });
});
