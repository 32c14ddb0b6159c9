import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticBytes } from '../../fixtures/fileServer.js';
import { startDownloadGateway, type DownloadGateway } from '../../fixtures/downloadGateway.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const errorOf = (result: any) => result.structuredContent.error;

describe('artifact_download through a real gateway', () => {
  let g: DownloadGateway;
  beforeEach(async () => {
    g = await startDownloadGateway();
  });
  afterEach(async () => {
    await g.dispose();
  });

  it('is listed with its input and output schemas, and a search downloads nothing by itself', async () => {
    const { client } = await g.agent('lister');
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'artifact_download');
    expect(tool?.inputSchema).toMatchObject({ required: ['mcpInvocationId', 'candidateId'], additionalProperties: false });
    // The result, or the structured error of a failed call.
    expect(tool?.outputSchema?.oneOf).toEqual([
      expect.objectContaining({ required: expect.arrayContaining(['jobId', 'finalPath', 'sha256']) }),
      expect.objectContaining({ required: ['error', 'invocationId'] }),
    ]);
    g.source.offer('a.pdf', { bytes: Buffer.from('%PDF-1.7 a') });
    g.files.serve('/a.pdf', { body: Buffer.from('%PDF-1.7 a') });
    const { artifacts } = await g.search(client, ['a.pdf']);
    expect(artifacts).toHaveLength(1);
    expect(g.files.requests).toEqual([]);
  });

  it('downloads a candidate into the workspace: verified, 0400, audited, with its plan and job transitions persisted', async () => {
    const { client, sessionId } = await g.agent('downloader', { approvalMode: 'always_allow' });
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), syntheticBytes(0, 300_000 - 9)]);
    g.source.offer('paper.pdf', { bytes: body });
    g.files.serve('/paper.pdf', { body });
    const { invocationId, artifacts } = await g.search(client, ['paper.pdf']);
    const progress: any[] = [];
    const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id }, { onprogress: (p) => progress.push(p) });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      status: 'completed', candidateId: artifacts[0].id, finalPath: 'downloads/files/paper.pdf', bytesDownloaded: body.length, sha256: sha256(body),
      sourceId: 'files', sourceRecordId: 'paper.pdf', license: 'CC-BY-4.0', mediaType: 'application/pdf',
      resourceUri: `scigate://sessions/${sessionId}/files/downloads/files/paper.pdf`,
    });
    expect(progress.at(-1)).toMatchObject({ progress: body.length, total: body.length });
    const onDisk = join(g.gateway.dataDir, 'workspaces', sessionId, 'downloads/files/paper.pdf');
    expect(sha256(await readFile(onDisk))).toBe(sha256(body));
    expect((await stat(onDisk)).mode & 0o777).toBe(0o400);
    expect((await stat(join(g.gateway.dataDir, 'workspaces', sessionId))).mode & 0o777).toBe(0o700);
    const { body: plans } = await g.api.get(`/api/sessions/${sessionId}/artifact-plans`);
    expect(plans.plans).toEqual([expect.objectContaining({ status: 'approved', sourceInvocationId: invocationId, authorizationId: expect.any(String) })]);
    const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(jobs.jobs).toEqual([expect.objectContaining({ state: 'completed', bytesDone: body.length, sha256: sha256(body), authorizationId: plans.plans[0].authorizationId })]);
    const { body: audit } = await g.api.get(`/api/sessions/${sessionId}/invocations`);
    expect(audit.invocations[0]).toMatchObject({ toolName: 'artifact_download', sourceId: 'files', toolId: 'artifact_download', status: 'ok', authorizationId: plans.plans[0].authorizationId });
    // A second download of the same candidate gets a numbered name; the first file is never overwritten.
    const again = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(again.structuredContent).toMatchObject({ finalPath: 'downloads/files/paper-1.pdf' });
  });

  it('refuses a "PDF" the server answers with an HTML page: the job fails saying so, and nothing is saved', async () => {
    const { client, sessionId } = await g.agent('html-pdf', { approvalMode: 'always_allow' });
    const page = Buffer.from('<!doctype html><html><body>Please sign in</body></html>');
    g.source.offer('signin.pdf', { mediaType: 'application/pdf', kind: 'pdf', sizeBytes: page.length });
    g.files.serve('/signin.pdf', { body: page, contentType: 'text/html' });
    const { invocationId, artifacts } = await g.search(client, ['signin.pdf']);
    const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as any).error).toMatchObject({ code: 'upstream_error', message: expect.stringMatching(/is not a PDF \(it begins "<!doctype html><html><body>Please sign in/) });
    const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(jobs.jobs).toEqual([expect.objectContaining({ state: 'failed', errorCode: 'upstream_error', bytesDone: 0 })]);
    await expect(readdir(join(g.gateway.dataDir, 'workspaces', sessionId, 'downloads/files'))).resolves.toEqual([]);
  });

  it('refuses an HTML page answered for a data file (a structure, a sequence): the job fails saying so, and nothing is saved', async () => {
    const { client, sessionId } = await g.agent('html-data', { approvalMode: 'always_allow' });
    const page = Buffer.from('\n  <!DOCTYPE HTML>\n<html><head><title>Service unavailable</title></head><body>Maintenance</body></html>');
    g.source.offer('1abc.cif', { mediaType: 'chemical/x-mmcif', kind: 'structure' });
    g.files.serve('/1abc.cif', { body: page, contentType: 'text/html' });
    const { invocationId, artifacts } = await g.search(client, ['1abc.cif']);
    const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect((result.structuredContent as any).error).toMatchObject({
      code: 'upstream_error', message: expect.stringMatching(/is a web page, not chemical\/x-mmcif \(it begins "<!DOCTYPE HTML> <html><head><title>Service unavailable/), details: { reason: 'html_page' },
    });
    const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(jobs.jobs).toEqual([expect.objectContaining({ state: 'failed', errorCode: 'upstream_error', bytesDone: 0 })]);
    await expect(readdir(join(g.gateway.dataDir, 'workspaces', sessionId, 'downloads/files'))).resolves.toEqual([]);
    // A page the candidate's checksum vouches for is its file, whatever its type says.
    g.source.offer('page.xml', { bytes: page, mediaType: 'application/xml', kind: 'data' });
    g.files.serve('/page.xml', { body: page });
    const vouched = await g.search(client, ['page.xml']);
    expect((await g.download(client, { mcpInvocationId: vouched.invocationId, candidateId: vouched.artifacts[0].id })).structuredContent).toMatchObject({ status: 'completed' });
  });

  it('refuses forged ids and arguments with nothing fetched', async () => {
    const { client } = await g.agent('forger', { approvalMode: 'always_allow' });
    const { client: other } = await g.agent('other', { approvalMode: 'always_allow' });
    g.source.offer('x.pdf', { bytes: Buffer.from('x') });
    g.files.serve('/x.pdf', { body: Buffer.from('x') });
    const { invocationId, artifacts } = await g.search(client, ['x.pdf']);
    const candidateId = artifacts[0].id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mcpInvocationId: invocationId, candidateId: 'cand_forged' }, 'not_found'],
      [{ mcpInvocationId: 'inv_forged', candidateId }, 'not_found'],
      [{ mcpInvocationId: invocationId, candidateId, url: 'https://files.example.org/other' }, 'invalid_input'],
      [{ mcpInvocationId: invocationId, candidateId, sourceId: 'files' }, 'invalid_input'],
      [{ mcpInvocationId: invocationId, candidateId, sourceRecordId: 'y' }, 'invalid_input'],
    ];
    for (const [args, code] of cases) {
      const result = await g.download(client, args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(errorOf(result).code).toBe(code);
    }
    // Another Session cannot use this Session's invocation.
    expect(errorOf(await g.download(other, { mcpInvocationId: invocationId, candidateId })).code).toBe('not_found');
    expect(g.files.requests).toEqual([]);
  });

  it('refuses ../, absolute and symlink-escape destinations, and overwriting a completed file', async () => {
    const { client, sessionId } = await g.agent('pather', { approvalMode: 'always_allow' });
    g.source.offer('p.pdf', { bytes: Buffer.from('p') });
    g.files.serve('/p.pdf', { body: Buffer.from('p') });
    const { invocationId, artifacts } = await g.search(client, ['p.pdf']);
    const base = join(g.gateway.dataDir, 'workspaces', sessionId);
    await mkdir(base, { recursive: true });
    await symlink(tmpdir(), join(base, 'escape'));
    for (const destinationPath of ['../p.pdf', 'a/../../p.pdf', join(tmpdir(), 'p.pdf'), 'escape/p.pdf']) {
      const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id, destinationPath });
      expect(errorOf(result), destinationPath).toMatchObject({ code: 'invalid_input', details: { field: 'destinationPath' } });
    }
    expect(g.files.requests).toEqual([]);
    expect((await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id, destinationPath: 'mine/p.pdf' })).isError).toBeFalsy();
    const clash = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id, destinationPath: 'mine/p.pdf' });
    expect(errorOf(clash)).toMatchObject({ code: 'conflict' });
  });

  it('stops a redirect to a host off the allow-list: job failed with the reason, that host never contacted', async () => {
    const { client, sessionId } = await g.agent('redirected', { approvalMode: 'always_allow' });
    g.source.offer('r.pdf');
    g.files.serve('/r.pdf', { body: Buffer.alloc(0), redirectTo: 'https://evil.example/r.pdf' });
    g.offList.serve('/r.pdf', { body: Buffer.from('stolen') });
    const { invocationId, artifacts } = await g.search(client, ['r.pdf']);
    const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(errorOf(result)).toMatchObject({ code: 'upstream_error', details: { reason: 'domain_not_allowed', host: 'evil.example', status: 'failed' } });
    expect(g.offList.requests).toEqual([]);
    const { body } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(body.jobs[0]).toMatchObject({ state: 'failed', errorCode: 'upstream_error', errorMessage: expect.stringContaining('evil.example') });
  });

  it('fails a checksum mismatch with no file at the final path, and stops a lying server at the size limit', async () => {
    const { client, sessionId } = await g.agent('verifier', { approvalMode: 'always_allow' });
    g.source.offer('bad.pdf', { checksum: { algorithm: 'md5', value: '0'.repeat(32) } });
    g.files.serve('/bad.pdf', { body: Buffer.from('not what was announced') });
    g.source.offer('liar.bin', { sizeBytes: 1000 });
    g.files.serve('/liar.bin', { body: syntheticBytes(0, 5_000_000), hideLength: true });
    const { invocationId, artifacts } = await g.search(client, ['bad.pdf', 'liar.bin']);
    const bad = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(errorOf(bad)).toMatchObject({ code: 'upstream_error', details: { reason: 'checksum_mismatch', status: 'failed' } });
    const liar = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[1].id });
    expect(errorOf(liar)).toMatchObject({ code: 'response_too_large', details: { reason: 'size_limit', maxBytes: 1000 + 64 * 1024 } });
    const base = join(g.gateway.dataDir, 'workspaces', sessionId, 'downloads/files');
    for (const name of ['bad.pdf', 'bad.pdf.part', 'liar.bin', 'liar.bin.part']) await expect(stat(join(base, name))).rejects.toThrow();
  });

  it('resumes a connection dropped at 40 % with a Range request; the final sha256 matches', async () => {
    const { client } = await g.agent('resumer', { approvalMode: 'always_allow' });
    const body = syntheticBytes(0, 2_000_000);
    g.source.offer('big.bin', { bytes: body });
    g.files.serve('/big.bin', { body, dropAt: 800_000 });
    const { invocationId, artifacts } = await g.search(client, ['big.bin']);
    const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(result.structuredContent).toMatchObject({ sha256: sha256(body), bytesDownloaded: body.length });
    expect(g.files.requests.map((r) => r.range)).toEqual([null, 'bytes=800000-']);
  });

  it('starts over when a resumed response sends more bytes than its Content-Range says, instead of saving a longer file', async () => {
    const { client } = await g.agent('overlong', { approvalMode: 'always_allow' });
    const body = syntheticBytes(0, 2_000_000);
    // No checksum or size announced: only the server's own Content-Range tells how long the file is.
    g.source.offer('whole.bin', { mediaType: 'application/octet-stream', kind: 'data' });
    g.files.serve('/whole.bin', { body, dropAt: 800_000, rangeFromStart: true });
    const { invocationId, artifacts } = await g.search(client, ['whole.bin']);
    const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(result.structuredContent).toMatchObject({ status: 'completed', sha256: sha256(body), bytesDownloaded: body.length });
    expect(g.files.requests.map((r) => [r.range, r.status])).toEqual([[null, 200], ['bytes=800000-', 206], [null, 200]]);
  });

  it('runs two downloads of one turn concurrently (they overlap on the server), and one failing does not stop the other', async () => {
    const { client } = await g.agent('parallel', { approvalMode: 'always_allow' });
    const one = syntheticBytes(0, 500_000);
    const two = syntheticBytes(7, 400_007);
    g.source.offer('one.bin', { bytes: one });
    g.source.offer('two.bin', { bytes: two });
    g.source.offer('broken.bin', { bytes: one });
    // Each body waits until both requests are in flight: the test passes only if they overlap.
    g.files.serve('/one.bin', { body: one, barrier: 2 });
    g.files.serve('/two.bin', { body: two, barrier: 2 });
    g.files.serve('/broken.bin', { body: one, failFirst: { times: 99, status: 403 } });
    const { invocationId, artifacts } = await g.search(client, ['one.bin', 'two.bin', 'broken.bin']);
    const [a, b, c] = await Promise.all(artifacts.map((candidate) => g.download(client, { mcpInvocationId: invocationId, candidateId: candidate.id })));
    expect(a!.structuredContent).toMatchObject({ status: 'completed', sha256: sha256(one) });
    expect(b!.structuredContent).toMatchObject({ status: 'completed', sha256: sha256(two) });
    expect(errorOf(c)).toMatchObject({ code: 'upstream_error', details: { status: 'failed' } });
    const [ra, rb] = ['/one.bin', '/two.bin'].map((p) => g.files.requests.find((r) => r.path === p)!);
    expect(ra!.startSeq).toBeLessThan(rb!.endSeq!);
    expect(rb!.startSeq).toBeLessThan(ra!.endSeq!);
  });

  it('in ask_for_dangerous mode waits for a decision, fetching nothing, and runs after allow_once', async () => {
    const { client, sessionId } = await g.agent('asker');
    g.source.offer('w.pdf', { bytes: Buffer.from('wait for me') });
    g.files.serve('/w.pdf', { body: Buffer.from('wait for me') });
    const { invocationId, artifacts } = await g.search(client, ['w.pdf']);
    const running = g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    const request = await vi.waitFor(
      async () => {
        const { body } = await g.api.get(`/api/sessions/${sessionId}/permission-requests?status=pending`);
        if (!body.requests[0]) throw new Error('no pending request yet');
        return body.requests[0];
      },
      { timeout: 60_000, interval: 25 },
    );
    expect(request).toMatchObject({ action: 'artifact.download', resource: 'files', toolName: 'artifact_download' });
    const { body: plans } = await g.api.get(`/api/sessions/${sessionId}/artifact-plans`);
    expect(plans.plans[0]).toMatchObject({ status: 'awaiting_approval' });
    expect(g.files.requests).toEqual([]);
    await g.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' });
    expect((await running).structuredContent).toMatchObject({ status: 'completed' });
    expect(g.files.requests).toHaveLength(1);
  });

  it('approving the plan (admin) releases the waiting call; a deny ends with the plan denied', async () => {
    const { client, sessionId } = await g.agent('planner');
    g.source.offer('d.pdf', { bytes: Buffer.from('d') });
    g.files.serve('/d.pdf', { body: Buffer.from('d') });
    const { invocationId, artifacts } = await g.search(client, ['d.pdf']);
    const planWaiting = async () =>
      vi.waitFor(
        async () => {
          const { body } = await g.api.get(`/api/sessions/${sessionId}/artifact-plans`);
          const plan = body.plans.find((p: any) => p.status === 'awaiting_approval');
          if (!plan) throw new Error('no plan waiting');
          const { body: pending } = await g.api.get(`/api/sessions/${sessionId}/permission-requests?status=pending`);
          if (!pending.requests.length) throw new Error('no request yet');
          return { plan, request: pending.requests[0] };
        },
        { timeout: 60_000, interval: 25 },
      );
    const first = g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    const { plan } = await planWaiting();
    expect((await g.api.post(`/api/artifact-plans/${plan.id}/approve`)).status).toBe(200);
    expect((await first).structuredContent).toMatchObject({ status: 'completed', planId: plan.id });
    const second = g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    const { plan: other, request } = await planWaiting();
    await g.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'deny' });
    expect(errorOf(await second)).toMatchObject({ code: 'permission_denied', details: { status: 'denied', planId: other.id } });
    const { body } = await g.api.get(`/api/sessions/${sessionId}/artifact-plans`);
    expect(body.plans.map((p: any) => p.status)).toEqual(['approved', 'denied']);
    expect(g.files.requests).toHaveLength(1);
  });

  it('an allow_matching Grant lets a second download of the same source run without asking', async () => {
    const { client, sessionId } = await g.agent('granter');
    g.source.offer('g1.pdf', { bytes: Buffer.from('g1') });
    g.source.offer('g2.pdf', { bytes: Buffer.from('g2') });
    g.files.serve('/g1.pdf', { body: Buffer.from('g1') });
    g.files.serve('/g2.pdf', { body: Buffer.from('g2') });
    const { invocationId, artifacts } = await g.search(client, ['g1.pdf', 'g2.pdf']);
    const first = g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    const request = await vi.waitFor(
      async () => {
        const { body } = await g.api.get(`/api/sessions/${sessionId}/permission-requests?status=pending`);
        if (!body.requests[0]) throw new Error('no pending request yet');
        return body.requests[0];
      },
      { timeout: 60_000, interval: 25 },
    );
    await g.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_matching' });
    expect((await first).structuredContent).toMatchObject({ status: 'completed' });
    const second = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[1].id });
    expect(second.structuredContent).toMatchObject({ status: 'completed' });
    const { body } = await g.api.get(`/api/sessions/${sessionId}/authorizations`);
    expect(body.authorizations.map((a: any) => a.basis)).toEqual(['allow_matching', 'grant']);
    const { body: requests } = await g.api.get(`/api/sessions/${sessionId}/permission-requests`);
    expect(requests.requests).toHaveLength(1);
  });

  it('cancelling the call from the client cancels the job and removes its part file', async () => {
    const { client, sessionId } = await g.agent('canceller', { approvalMode: 'always_allow' });
    const controller = new AbortController();
    const { running } = await g.downloadHeld(client, 'slow.bin', { size: 1_000_000, holdAt: 300_000 }, { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toThrow();
    const job = await vi.waitFor(
      async () => {
        const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
        if (jobs.jobs[0]?.state !== 'cancelled') throw new Error(`job is ${jobs.jobs[0]?.state}`);
        return jobs.jobs[0];
      },
      { timeout: 60_000, interval: 25 },
    );
    expect(job).toMatchObject({ state: 'cancelled', errorCode: 'cancelled' });
    await expect(stat(join(g.gateway.dataDir, 'workspaces', sessionId, 'downloads/files/slow.bin.part'))).rejects.toThrow();
  });
});

describe('artifact_download after a failed attempt in the same Session', () => {
  let g: DownloadGateway;
  beforeEach(async () => {
    g = await startDownloadGateway();
  });
  afterEach(async () => {
    await g.dispose();
  });

  it('a failed job keeps its part file, and calling again resumes it with a Range request', async () => {
    const { client, sessionId } = await g.agent('persistent', { approvalMode: 'always_allow' });
    const body = syntheticBytes(0, 1_000_000);
    g.source.offer('flaky.bin', { bytes: body });
    // Dropped at 40 %, then two broken answers: the first call gives up with the bytes kept.
    g.files.serve('/flaky.bin', { body, dropAt: 400_000, afterDrop: { times: 2, status: 500 } });
    const { invocationId, artifacts } = await g.search(client, ['flaky.bin']);
    const failed = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(errorOf(failed)).toMatchObject({ code: 'upstream_unavailable', details: { status: 'failed', bytesDownloaded: 400_000 } });
    const again = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
    expect(again.structuredContent).toMatchObject({ status: 'completed', finalPath: 'downloads/files/flaky.bin', sha256: sha256(body) });
    expect(g.files.requests.map((r) => [r.range, r.status])).toEqual([
      [null, 200], ['bytes=400000-', 500], ['bytes=400000-', 500], ['bytes=400000-', 206],
    ]);
    const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(jobs.jobs.map((j: any) => j.state)).toEqual(['failed', 'completed']);
  });
});
