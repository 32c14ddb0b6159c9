import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../storage/index.js';
import { silentLogger } from '../../gateway/core/index.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { openEventStream, type EventStream } from '../fixtures/eventStream.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { FakeClock } from '../fixtures/brokerDoubles.js';
import { newSession } from '../fixtures/permissionDoubles.js';

const APPROVAL_TIMEOUT_MS = 15 * 60_000;

describe('approval waits on the gateway clock (fake clock, real SDK client and custom server)', () => {
  let upstream: DangerousHttpServer;
  let gateway: TestGateway;
  let api: AdminApi;
  let events: EventStream;
  let write: string;
  const clock = new FakeClock();

  beforeAll(async () => {
    upstream = await startDangerousHttpServer();
    gateway = await startTestGateway({}, undefined, { clock, approvalTimeoutMs: APPROVAL_TIMEOUT_MS });
    api = adminApi(gateway);
    events = await openEventStream(gateway);
    const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
    write = created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name;
  });
  afterAll(async () => {
    events.close();
    await gateway.dispose();
    await upstream.close();
  });

  async function pendingCall(name: string, text: string) {
    const client = await gateway.connect({ name });
    const sessionId = (await api.sessionOf(name)).id;
    const result = client.callTool({ name: write, arguments: { text } }) as Promise<any>;
    const request = (await events.next((e) => e.type === 'permission_request.created' && e.sessionId === sessionId)).data;
    return { sessionId, result, request };
  }

  it('a human who takes 10 minutes does not turn a 60 s tool into a timeout', async () => {
    const { result, request } = await pendingCall('slow-human', 'ten minutes later');
    clock.advance(10 * 60_000);
    expect((await api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' })).status).toBe(200);
    const answer = await result;
    expect(answer.isError).toBeFalsy();
    expect((answer.content as unknown[]).slice(1)).toEqual([{ type: 'text', text: 'saved: ten minutes later' }]);
  });

  it('an unanswered request expires after the approval timeout: permission_expired, audited, nothing reaches the upstream', async () => {
    const before = upstream.calls.length;
    const { sessionId, result, request } = await pendingCall('absent-human', 'nobody decides');
    expect(request.expiresAt).toBe(new Date(clock.now() + APPROVAL_TIMEOUT_MS).toISOString());
    clock.advance(APPROVAL_TIMEOUT_MS);
    const answer = await result;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error).toMatchObject({ code: 'permission_expired', retryable: false });
    // Named as the agent called the tool, not by its internal resource, and saying what to do next.
    expect(request.resource).toMatch(/^mcp__custom-/);
    expect(answer.structuredContent.error.message).toContain(`this call to ${write} may run`);
    expect(answer.structuredContent.error.message).not.toContain('mcp__custom-');
    expect(answer.structuredContent.error.message).toMatch(/Ask the user to decide it .*admin page or in their MCP client, then call the tool again\.$/);
    const { body } = await api.get(`/api/sessions/${sessionId}/invocations/${answer.structuredContent.invocationId}`);
    expect(body.invocation).toMatchObject({ status: 'error', errorCode: 'permission_expired', authorizationId: null });
    expect((await api.get(`/api/sessions/${sessionId}/permission-requests`)).body.requests[0]).toMatchObject({ status: 'expired', resolvedVia: 'timeout' });
    expect((await api.get(`/api/sessions/${sessionId}/authorizations`)).body.authorizations).toEqual([]);
    expect(upstream.calls.length).toBe(before);
  });
});

describe('start-up after a crash', () => {
  it('requests left pending by the previous run are marked orphaned and can no longer be decided', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'scigate-orphans-'));
    // What a crash leaves behind: a Session and a request still pending in the durable store.
    const storage = await openStorage({ dataDir, log: silentLogger });
    await storage.sessions.create(newSession({ id: 'ses_crashed' }));
    await storage.permissions.addRequest({
      id: 'preq_left', sessionId: 'ses_crashed', projectId: 'default', invocationId: 'inv_left', toolName: 'mcp__notes__write_note',
      action: 'tool.call', resource: 'mcp__notes__write_note', argumentsPreview: '{}', epoch: 0, status: 'pending', resolution: null,
      resolvedVia: null, grantId: null, authorizationId: null, createdAt: '2026-12-01T00:00:00.000Z', expiresAt: '2026-12-01T00:15:00.000Z',
      resolvedAt: null,
    });
    await storage.close();

    const gateway = await startTestGateway({}, dataDir);
    try {
      const api = adminApi(gateway);
      const { body } = await api.get('/api/sessions/ses_crashed/permission-requests');
      expect(body.requests).toEqual([expect.objectContaining({ id: 'preq_left', status: 'orphaned', resolvedVia: 'startup' })]);
      expect((await api.post('/api/permission-requests/preq_left/decision', { decision: 'allow_once' })).status).toBe(409);
    } finally {
      await gateway.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
