import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventHub, GatewayError, randomId, silentLogger, systemClock, type GatewayEvent } from '../../gateway/core/index.js';
import { PaperExtractions, createPdfWorkers, resolveExtractionLimits, type ExtractionLimits } from '../../gateway/extraction/index.js';
import { FileWorkspace, openMemoryStorage } from '../../storage/index.js';
import { newSession } from '../fixtures/permissionDoubles.js';
import { hugeContentStreamPdf, multiPagePdf } from '../fixtures/pdfs.js';

/** PaperExtractions over memory stores, a real workspace directory and real workers: its limiter and job endings. */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function service(options: { concurrency: number; queueTimeoutMs: number; limits?: Partial<ExtractionLimits> }) {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-extractions-'));
  const storage = openMemoryStorage();
  const workspace = new FileWorkspace(dir);
  const events = new EventHub();
  const seen: GatewayEvent[] = [];
  events.subscribe((e) => seen.push(e));
  const limits = resolveExtractionLimits(options.limits);
  const workers = createPdfWorkers({ maxHeapMb: limits.maxHeapMb });
  cleanups.push(async () => {
    await workers.close();
    await rm(dir, { recursive: true, force: true });
  });
  const extractions = new PaperExtractions({
    store: storage.extractions, artifacts: storage.artifacts, workspace, events, clock: systemClock, newId: randomId, log: silentLogger, limits, workers,
    concurrency: options.concurrency, queueTimeoutMs: options.queueTimeoutMs,
  });
  const session = newSession({ id: 'ses_limits' });
  const put = async (path: string, bytes: Uint8Array) => workspace.writeFile(session.id, path, (async function* () { yield bytes; })(), { maxBytes: bytes.length });
  const call = (path: string, signal = new AbortController().signal) => extractions.extract({ session, invocationId: randomId('inv'), path, signal });
  return { extractions, storage, session, put, call, seen };
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: unknown) => (e instanceof GatewayError ? e.code : String(e)));

describe('PaperExtractions: limiter and job endings', () => {
  it('past the concurrency, a call waits in the queue and fails with queue_timeout when no slot frees in time; its job is failed', async () => {
    // The queue wait is far shorter than any extraction (a worker must start first), so the second
    // call cannot get the slot in time however fast the machine is.
    const s = await service({ concurrency: 1, queueTimeoutMs: 20, limits: { timeoutMs: 60_000, maxHeapMb: 48 } });
    await s.put('bomb.pdf', await hugeContentStreamPdf());
    await s.put('small.pdf', await multiPagePdf());
    const bomb = codeOf(s.call('bomb.pdf'));
    // The bomb holds the only slot before the second call asks for it (hashing the big file first
    // would otherwise let the small one overtake it on a busy machine).
    await expect.poll(() => s.seen.some((e) => e.type === 'extraction.job' && (e.data as { status: string }).status === 'running'), { timeout: 60_000 }).toBe(true);
    const queued = await codeOf(s.call('small.pdf'));
    expect(queued).toBe('queue_timeout');
    expect(await bomb).toBe('extraction_limit');
    const jobs = await s.extractions.listJobs(s.session.id);
    expect(jobs.map((j) => [j.pdfPath, j.status, j.errorCode])).toEqual([['bomb.pdf', 'failed', 'extraction_limit'], ['small.pdf', 'failed', 'queue_timeout']]);
    // The slot is free again: the next call runs.
    expect((await s.call('small.pdf')).pageCount).toBe(3);
    expect(await s.storage.extractions.listAcquisitions(s.session.id)).toHaveLength(1);
  });

  it('a call cancelled while its worker runs ends its job cancelled, with no acquisition', async () => {
    const s = await service({ concurrency: 2, queueTimeoutMs: 60_000 });
    await s.put('bomb.pdf', await hugeContentStreamPdf());
    const controller = new AbortController();
    const pending = codeOf(s.call('bomb.pdf', controller.signal));
    await expect.poll(() => s.seen.some((e) => e.type === 'extraction.job' && (e.data as { status: string }).status === 'running'), { timeout: 60_000 }).toBe(true);
    controller.abort();
    expect(await pending).toBe('cancelled');
    const [job] = await s.extractions.listJobs(s.session.id);
    expect(job).toMatchObject({ status: 'cancelled', errorCode: 'cancelled' });
    expect(await s.storage.extractions.listAcquisitions(s.session.id)).toEqual([]);
  });
});

describe('PaperExtractions: the same bytes twice in one turn', () => {
  it('two concurrent calls for one PDF make one job; the second returns the first extraction', async () => {
    const s = await service({ concurrency: 2, queueTimeoutMs: 60_000 });
    const bytes = await multiPagePdf();
    await s.put('a.pdf', bytes);
    await s.put('b.pdf', bytes);
    const [a, b] = await Promise.all([s.call('a.pdf'), s.call('b.pdf')]);
    expect([a.reused, b.reused].sort()).toEqual([false, true]);
    expect(b.extractionId).toBe(a.extractionId);
    expect(await s.extractions.listJobs(s.session.id)).toHaveLength(1);
  });
});
