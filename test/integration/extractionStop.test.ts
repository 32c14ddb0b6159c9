import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { INTERRUPTED_REASON } from '../../gateway/extraction/index.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { hugeContentStreamPdf } from '../fixtures/pdfs.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/** A worker heap and a wall clock so large that the decompression bomb is still being read when the gateway stops. */
const SLOW = { maxHeapMb: 1024, timeoutMs: 300_000 };

describe('stopping the gateway during an extraction', () => {
  let gateway: TestGateway | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await gateway?.dispose();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('stops the worker, and the next start fails the job as interrupted by the stop, not as cancelled by the client', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'scigate-extract-stop-'));
    gateway = await startTestGateway({}, dataDir, { extractionLimits: SLOW });
    const client = await gateway.connect({ name: 'stopped-reader' });
    const sessionId = (await adminApi(gateway).sessionOf('stopped-reader')).id;
    const upload = await request(gateway.url)
      .post(`/api/sessions/${sessionId}/files?path=uploads/bomb.pdf`)
      .set('authorization', `Bearer ${gateway.token}`)
      .set('content-type', 'application/pdf')
      .send(Buffer.from(await hugeContentStreamPdf()));
    expect(upload.status).toBe(201);
    const answer = client.callTool({ name: 'paper_extract_pdf', arguments: { path: 'uploads/bomb.pdf' } }, undefined, { timeout: 300_000 }).catch((error: unknown) => error);
    const jobs = async (on: TestGateway) => (await adminApi(on).get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs;
    await vi.waitFor(async () => expect((await jobs(gateway!))[0]).toMatchObject({ status: 'running' }), { timeout: 60_000, interval: 20 });

    await gateway.stop();
    // The SDK client does not fail a request whose connection the server closed; closing it does.
    await client.close();
    expect(await answer).toBeInstanceOf(Error);
    gateway = await startTestGateway({}, dataDir, { extractionLimits: SLOW });
    expect((await jobs(gateway))[0]).toMatchObject({ status: 'failed', errorMessage: INTERRUPTED_REASON });
  });
});
