import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syntheticBytes } from '../../fixtures/fileServer.js';
import { openEventStream } from '../../fixtures/eventStream.js';
import { startDownloadGateway, type DownloadGateway } from '../../fixtures/downloadGateway.js';

describe('the admin artifact routes and live job progress', () => {
  let g: DownloadGateway;
  beforeEach(async () => {
    g = await startDownloadGateway();
  });
  afterEach(async () => {
    await g.dispose();
  });

  it('lists candidates, creates a plan that runs as an explicit admin action, and streams job progress on /api/events', async () => {
    const { client, sessionId } = await g.agent('admin-driven');
    const body = syntheticBytes(0, 3_000_000);
    g.source.offer('admin.bin', { bytes: body });
    g.files.serve('/admin.bin', { body });
    const { invocationId, artifacts } = await g.search(client, ['admin.bin']);
    const { body: listed } = await g.api.get(`/api/sessions/${sessionId}/artifact-candidates`);
    expect(listed.candidates).toEqual([{ mcpInvocationId: invocationId, candidate: expect.objectContaining({ id: artifacts[0].id }) }]);
    const events = await openEventStream(g.gateway, `?sessionId=${sessionId}`);
    try {
      const created = await g.api.post(`/api/sessions/${sessionId}/artifact-plans`, { mcpInvocationId: invocationId, candidateId: artifacts[0].id });
      expect(created.status).toBe(202);
      expect(created.body.plan).toMatchObject({ candidateId: artifacts[0].id, destinationPath: 'downloads/files/admin.bin' });
      const progress = await events.next((e) => e.type === 'download.progress' && e.data.bytesDone > 0, 30_000);
      expect(progress.data).toMatchObject({ jobId: expect.any(String), totalBytes: body.length });
      const done = await events.next((e) => e.type === 'download.updated' && e.data.state === 'completed', 30_000);
      expect(done.data).toMatchObject({ planId: created.body.plan.id, bytesDone: body.length });
      await events.next((e) => e.type === 'workspace.file' && e.data.path === 'downloads/files/admin.bin', 30_000);
    } finally {
      events.close();
    }
    // The Invocation row is written when the call ends, just after the job's last event.
    await vi.waitFor(async () => {
      const { body: audit } = await g.api.get(`/api/sessions/${sessionId}/invocations`);
      expect(audit.invocations[0]).toMatchObject({ toolName: 'artifact_download', origin: 'inspector', status: 'ok' });
    }, { timeout: 60_000, interval: 25 });
    const refused = await g.api.post(`/api/sessions/${sessionId}/artifact-plans`, { mcpInvocationId: invocationId, candidateId: 'cand_forged' });
    expect(refused.status).toBe(404);
    expect((await g.api.post(`/api/sessions/${sessionId}/artifact-plans`, { candidateId: 'x' })).status).toBe(400);
  });

  it("writes a running job's bytes done to its record between transitions (once a second), not only when it ends", async () => {
    const { client, sessionId } = await g.agent('admin-progress', { approvalMode: 'always_allow' });
    const { body, running } = await g.downloadHeld(client, 'slow.bin', { size: 4_000_000, holdAt: 2_500_000 });
    // Progress is reported every MiB: 2 MiB arrived before the hold, and the record shows it while the job still runs.
    const job = await vi.waitFor(async () => {
      const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
      const current = jobs.jobs[0];
      if (current?.state !== 'running' || current.bytesDone < 2 * 1024 * 1024) throw new Error(`job is ${current?.state} at ${current?.bytesDone} bytes`);
      return current;
    }, { timeout: 60_000, interval: 50 });
    expect(job.bytesDone).toBeLessThanOrEqual(2_500_000);
    g.files.release();
    const answer: any = await running;
    expect(answer.structuredContent).toMatchObject({ status: 'completed', bytesDownloaded: body.length });
  });

  it('cancels a running job, retries it from scratch, and refuses to cancel or retry what cannot be', async () => {
    const { client, sessionId } = await g.agent('admin-cancel', { approvalMode: 'always_allow' });
    const { running } = await g.downloadHeld(client, 'held.bin', { size: 1_000_000, holdAt: 200_000 });
    const job = await vi.waitFor(async () => {
      const { body: jobs } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
      if (jobs.jobs[0]?.state !== 'running') throw new Error('not running yet');
      return jobs.jobs[0];
    }, { timeout: 60_000, interval: 25 });
    expect((await g.api.post(`/api/download-jobs/${job.id}/retry`)).status).toBe(409);
    expect((await g.api.post(`/api/download-jobs/${job.id}/cancel`)).status).toBe(202);
    const answer: any = await running;
    expect(answer.structuredContent.error).toMatchObject({ code: 'cancelled', details: { status: 'cancelled', jobId: job.id } });
    expect((await g.api.post(`/api/download-jobs/${job.id}/cancel`)).status).toBe(409);
    g.files.release();
    expect((await g.api.post(`/api/download-jobs/${job.id}/retry`)).status).toBe(202);
    await vi.waitFor(async () => {
      const { body: current } = await g.api.get(`/api/download-jobs/${job.id}`);
      if (current.job.state !== 'completed') throw new Error(`job is ${current.job.state}`);
    }, { timeout: 60_000, interval: 25 });
    expect((await g.api.get('/api/download-jobs/job_missing')).status).toBe(404);
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['downloads/files/held.bin']);
  });
});
