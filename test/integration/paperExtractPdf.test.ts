import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { openEventStream, type EventStream } from '../fixtures/eventStream.js';
import { startFileServer, type FileServer } from '../fixtures/fileServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { FILES_ORIGIN, filesSource, type FilesSource } from '../fixtures/servers/filesSource.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import {
  doiPdf, encryptedPdf, hugeContentStreamPdf, marker, multiPagePdf, randomBytesNamedPdf, truncatedPdf, twoColumnPdf,
} from '../fixtures/pdfs.js';

/**
 * paper_extract_pdf end to end: a real gateway (loopback HTTP, data directory, replayed arXiv, the
 * "files" test source mirrored to a loopback file server), real SDK clients, real PDFs from pdf-lib.
 */
let gateway: TestGateway;
let api: AdminApi;
let files: FileServer;
let source: FilesSource;
let arxiv: ReplayServer;
let events: EventStream;

beforeAll(async () => {
  files = await startFileServer();
  arxiv = await startReplayServer(arxivReplay);
  source = filesSource();
  gateway = await startTestGateway({ SCIGATE_ARXIV_BASE_URL: `${arxiv.baseUrl}/api` }, undefined, {
    extraSources: [{ manifest: source.manifest, target: { kind: 'memory', createServer: source.createServer } }],
    downloadMirrors: { [FILES_ORIGIN]: files.origin },
    // A heap small enough that the decompression bomb hits it soon; a wall clock long enough for a loaded machine.
    extractionLimits: { maxHeapMb: 48, timeoutMs: 90_000 },
  });
  api = adminApi(gateway);
  events = await openEventStream(gateway);
});

afterAll(async () => {
  events?.close();
  await gateway?.dispose();
  await files?.close();
  await arxiv?.close();
});

async function agent(name: string): Promise<{ client: Client; sessionId: string }> {
  const client = await gateway.connect({ name });
  // As agents do: the SDK client then checks every result, failures too, against the listed outputSchema.
  await client.listTools();
  const session = await api.sessionOf(name);
  return { client, sessionId: session.id };
}

async function upload(sessionId: string, path: string, bytes: Uint8Array): Promise<void> {
  const response = await request(gateway.url)
    .post(`/api/sessions/${sessionId}/files?path=${encodeURIComponent(path)}`)
    .set('authorization', `Bearer ${gateway.token}`)
    .set('content-type', 'application/pdf')
    .send(Buffer.from(bytes));
  expect(response.status).toBe(201);
}

function extract(client: Client, args: Record<string, unknown>, onprogress?: (p: any) => void): Promise<CallToolResult> {
  return client.callTool({ name: 'paper_extract_pdf', arguments: args }, undefined, {
    timeout: 120_000, ...(onprogress ? { onprogress, resetTimeoutOnProgress: true } : {}),
  }) as Promise<CallToolResult>;
}

const ok = (result: CallToolResult) => {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return result.structuredContent as any;
};
const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return (result.structuredContent as any).error;
};

async function readText(client: Client, uri: string): Promise<string> {
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { text?: string; blob?: string };
  return content.text ?? Buffer.from(content.blob ?? '', 'base64').toString('utf8');
}

describe('paper_extract_pdf({path})', () => {
  it('extracts an uploaded multi-page PDF: pages, progress per page, text and manifest as resources, audited, listed by the routes', async () => {
    const { client, sessionId } = await agent('reader');
    await upload(sessionId, 'uploads/three.pdf', await multiPagePdf());
    const progress: any[] = [];
    const result = ok(await extract(client, { path: 'uploads/three.pdf' }, (p) => progress.push(p)));
    expect(result).toMatchObject({
      status: 'completed', reused: false, pageCount: 3, pdfPath: 'uploads/three.pdf', textPath: 'uploads/three.txt', manifestPath: 'uploads/three.manifest.json',
      textResourceUri: `scigate://sessions/${sessionId}/files/uploads/three.txt`, textTruncated: false,
    });
    expect(result.textPreview.startsWith(`Page 1 begins with ${marker(1)}.`)).toBe(true);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    const text = await readText(client, result.textResourceUri);
    expect(text.split('\f')).toHaveLength(3);
    expect([...text]).toHaveLength(result.characterCount);
    const manifest = JSON.parse(await readText(client, result.manifestResourceUri));
    expect(manifest.pages.map((p: any) => p.page)).toEqual([1, 2, 3]);

    const { body: listed } = await api.get(`/api/sessions/${sessionId}/extraction-jobs`);
    expect(listed.jobs).toEqual([expect.objectContaining({ id: result.extractionId, status: 'completed', pageCount: 3, input: 'path', invocationId: result.invocationId })]);
    const { body: one } = await api.get(`/api/extraction-jobs/${result.extractionId}`);
    expect(one.acquisition).toMatchObject({ id: result.acquisitionId, extractionJobId: result.extractionId, downloadJobId: null, title: 'Three Pages of Folding' });
    expect((await api.get('/api/extraction-jobs/ext_nope')).status).toBe(404);
    const { body: audit } = await api.get(`/api/sessions/${sessionId}/invocations`);
    expect(audit.invocations[0]).toMatchObject({ toolName: 'paper_extract_pdf', status: 'ok' });
    const statuses = events.events.filter((e) => e.type === 'extraction.job' && e.data.id === result.extractionId).map((e) => e.data.status);
    expect(statuses).toEqual(['queued', 'running', 'completed']);
    expect(events.events.filter((e) => e.type === 'extraction.progress' && e.data.jobId === result.extractionId)).toHaveLength(3);
  });

  it('a two-column page comes out column by column without its running header; the DOI on page 1 is in the manifest', async () => {
    const { client, sessionId } = await agent('columns');
    await upload(sessionId, 'uploads/cols.pdf', await twoColumnPdf({ pages: 2 }));
    await upload(sessionId, 'uploads/doi.pdf', await doiPdf());
    const cols = ok(await extract(client, { path: 'uploads/cols.pdf' }));
    const page1 = (await readText(client, cols.textResourceUri)).split('\f')[0]!;
    expect(page1.indexOf('LEFT-1 opens with')).toBe(0);
    expect(page1.indexOf('RIGHT-1 opens with')).toBeGreaterThan(page1.indexOf('hyphenation'));
    expect(page1).not.toContain('Journal of Test Results');
    const doi = ok(await extract(client, { path: 'uploads/doi.pdf' }));
    expect(doi.metadata).toMatchObject({ doi: '10.1234/scigate.test-2024.001', doiSource: 'first_page', title: 'Über naïve Café Kinetics' });
    expect(JSON.parse(await readText(client, doi.manifestResourceUri)).metadata.doi).toBe('10.1234/scigate.test-2024.001');
    expect(doi.textPreview).toContain('Zoë Brontë and Jürgen Groß');
  });

  it('the same bytes extracted before in the Session return that extraction, under any path, with no new job', async () => {
    const { client, sessionId } = await agent('deduper');
    const bytes = await multiPagePdf();
    await upload(sessionId, 'uploads/first.pdf', bytes);
    await upload(sessionId, 'uploads/copy.pdf', bytes);
    const first = ok(await extract(client, { path: 'uploads/first.pdf' }));
    const again = ok(await extract(client, { path: 'uploads/first.pdf' }));
    const copy = ok(await extract(client, { path: 'uploads/copy.pdf' }));
    for (const reused of [again, copy]) {
      expect(reused).toMatchObject({ reused: true, extractionId: first.extractionId, acquisitionId: first.acquisitionId, textPath: first.textPath });
      expect(reused.textPreview).toBe(first.textPreview);
    }
    expect((await api.get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs).toHaveLength(1);
    // Another Session extracts the same bytes on its own.
    const other = await agent('deduper-2');
    await upload(other.sessionId, 'uploads/first.pdf', bytes);
    expect(ok(await extract(other.client, { path: 'uploads/first.pdf' })).extractionId).not.toBe(first.extractionId);
  });

  it('refuses a file that is not a PDF (by its bytes), a missing file and a path outside the workspace, creating no job', async () => {
    const { client, sessionId } = await agent('refused');
    await upload(sessionId, 'uploads/fake.pdf', new TextEncoder().encode('<html>not a pdf</html>'));
    expect(errorOf(await extract(client, { path: 'uploads/fake.pdf' })).code).toBe('unsupported_media_type');
    expect(errorOf(await extract(client, { path: 'uploads/none.pdf' })).code).toBe('not_found');
    // A folder is not a file: the message says what to pass.
    expect(errorOf(await extract(client, { path: 'uploads' }))).toMatchObject({ code: 'not_found', message: expect.stringContaining('is not a file of this session') });
    expect(errorOf(await extract(client, { path: '../../etc/passwd' }))).toMatchObject({ code: 'invalid_input', details: { field: 'path' } });
    expect(errorOf(await extract(client, {})).code).toBe('invalid_input');
    expect((await api.get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs).toEqual([]);
  });

  it('an upload with a Content-Encoding is refused (415), not stored still encoded', async () => {
    const { sessionId } = await agent('encoded');
    for (const encoding of ['gzip', 'foo']) {
      const response = await request(gateway.url)
        .post(`/api/sessions/${sessionId}/files?path=uploads/encoded-${encoding}.bin`)
        .set('authorization', `Bearer ${gateway.token}`)
        .set('content-type', 'application/octet-stream')
        .set('content-encoding', encoding)
        .send(Buffer.from('not really encoded'));
      expect(response.status).toBe(415);
      expect(response.body.error).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('without Content-Encoding') });
    }
    // Nothing was stored at the path (a second upload there would be a 409).
    await upload(sessionId, 'uploads/encoded-gzip.bin', Buffer.from('plain'));
  });

  it('an encrypted PDF, a truncated one and random bytes named .pdf fail cleanly with distinct codes', async () => {
    const { client, sessionId } = await agent('broken');
    await upload(sessionId, 'uploads/locked.pdf', await encryptedPdf());
    await upload(sessionId, 'uploads/cut.pdf', await truncatedPdf());
    await upload(sessionId, 'uploads/noise.pdf', randomBytesNamedPdf());
    const locked = errorOf(await extract(client, { path: 'uploads/locked.pdf' }));
    const cut = errorOf(await extract(client, { path: 'uploads/cut.pdf' }));
    const noise = errorOf(await extract(client, { path: 'uploads/noise.pdf' }));
    expect([locked.code, cut.code, noise.code]).toEqual(['pdf_encrypted', 'pdf_corrupt', 'unsupported_media_type']);
    expect(locked.message).toMatch(/password/);
    const jobs = (await api.get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs;
    expect(jobs.map((j: any) => [j.status, j.errorCode])).toEqual([['failed', 'pdf_encrypted'], ['failed', 'pdf_corrupt']]);
  });
});

describe('paper_extract_pdf({artifactJobId})', () => {
  async function download(client: Client, name: string, bytes: Uint8Array) {
    source.offer(name, { bytes: Buffer.from(bytes), mediaType: 'application/pdf' });
    files.serve(`/${name}`, { body: Buffer.from(bytes) });
    const search = ok((await client.callTool({ name: 'mcp__files__search', arguments: { query: name } })) as CallToolResult);
    return ok((await client.callTool({ name: 'artifact_download', arguments: { mcpInvocationId: search.invocationId, candidateId: search.artifacts[0].id } }, undefined, { timeout: 120_000 })) as CallToolResult);
  }

  it('extracts a completed download and links it in the acquisition; a failed extraction leaves the download completed', async () => {
    const { client, sessionId } = await agent('downloader');
    await api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'always_allow' });
    const paper = await download(client, 'paper.pdf', await doiPdf());
    // A download never starts an extraction by itself.
    expect((await api.get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs).toEqual([]);
    const result = ok(await extract(client, { artifactJobId: paper.jobId }));
    expect(result).toMatchObject({ pdfPath: paper.finalPath, textPath: paper.finalPath.replace(/\.pdf$/, '.txt'), pageCount: 1 });
    expect((await api.get(`/api/extraction-jobs/${result.extractionId}`)).body.acquisition).toMatchObject({ downloadJobId: paper.jobId, doi: '10.1234/scigate.test-2024.001' });

    const locked = await download(client, 'locked.pdf', await encryptedPdf());
    expect(errorOf(await extract(client, { artifactJobId: locked.jobId })).code).toBe('pdf_encrypted');
    const jobs = (await api.get(`/api/sessions/${sessionId}/download-jobs`)).body.jobs;
    expect(jobs.find((j: any) => j.id === locked.jobId)).toMatchObject({ state: 'completed' });
  });

  it("refuses a download that has not completed and another Session's download", async () => {
    const owner = await agent('owner');
    await api.patch(`/api/sessions/${owner.sessionId}`, { approvalMode: 'always_allow' });
    const done = await download(owner.client, 'mine.pdf', await multiPagePdf());
    const bytes = Buffer.from(await twoColumnPdf());
    source.offer('slow.pdf', { bytes, mediaType: 'application/pdf' });
    files.serve('/slow.pdf', { body: bytes, holdAt: 100 });
    const search = ok((await owner.client.callTool({ name: 'mcp__files__search', arguments: { query: 'slow.pdf' } })) as CallToolResult);
    const pending = owner.client.callTool({ name: 'artifact_download', arguments: { mcpInvocationId: search.invocationId, candidateId: search.artifacts[0].id } }, undefined, { timeout: 120_000 });
    await files.whenHeld();
    const running = (await api.get(`/api/sessions/${owner.sessionId}/download-jobs`)).body.jobs.find((j: any) => j.destinationPath.endsWith('slow.pdf'));
    const unfinished = errorOf(await extract(owner.client, { artifactJobId: running.id }));
    expect(unfinished.code).toBe('conflict');
    expect(unfinished.message).toMatch(/not completed/);
    files.release();
    await pending;

    const stranger = await agent('stranger');
    expect(errorOf(await extract(stranger.client, { artifactJobId: done.jobId })).code).toBe('not_found');
    expect(errorOf(await extract(stranger.client, { artifactJobId: 'dl_does_not_exist' })).code).toBe('not_found');
  });
});

describe('a hostile PDF', () => {
  it('is stopped at the worker limit and reported, while a concurrent arXiv search through the same gateway answers', async () => {
    const { client, sessionId } = await agent('hostile');
    await upload(sessionId, 'uploads/bomb.pdf', await hugeContentStreamPdf());
    const searcher = await agent('searcher');
    const bomb = extract(client, { path: 'uploads/bomb.pdf' });
    await events.next((e) => e.type === 'extraction.job' && e.sessionId === sessionId && e.data.status === 'running', 60_000);
    const search = ok((await searcher.client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as CallToolResult);
    expect(search.records.length).toBeGreaterThan(0);
    const stillRunning = (await api.get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs[0];
    const error = errorOf(await bomb);
    expect(error.code).toBe('extraction_limit');
    expect(error.message).toMatch(/stopped/);
    const job = (await api.get(`/api/sessions/${sessionId}/extraction-jobs`)).body.jobs[0];
    expect(job).toMatchObject({ status: 'failed', errorCode: 'extraction_limit' });
    // The search answered while the extraction was still running (not after it ended).
    expect(stillRunning.status).toBe('running');
    // And the gateway extracts the next PDF normally.
    await upload(sessionId, 'uploads/after.pdf', await multiPagePdf());
    expect(ok(await extract(client, { path: 'uploads/after.pdf' })).pageCount).toBe(3);
  });
});
