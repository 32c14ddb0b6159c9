import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { answerOf, startGateway, type GatewayProcess } from './gatewayProcess.js';
import { capFileSize } from './storageFaults.js';

let upstream: DangerousHttpServer;
let root: string;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  upstream = await startDangerousHttpServer();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  await gateway?.kill9();
  gateway = undefined;
  if (root) await rm(root, { recursive: true, force: true });
});

/** The Session's one pending request, once the call has asked (bounded by vi.waitFor). */
async function pendingRequest(g: GatewayProcess, sessionId: string): Promise<any> {
  return vi.waitFor(
    async () => {
      const [request] = (await g.api.get(`/api/sessions/${sessionId}/permission-requests?status=pending`)).body.requests;
      if (!request) throw new Error('no pending request yet');
      return request;
    },
    { timeout: 60_000, interval: 20 },
  );
}

describe('a decision the store cannot record (full disk)', () => {
  it('is answered 503 and leaves the action waiting: decided again once the disk has room, the call runs once', { timeout: 300_000 }, async () => {
    root = await mkdtemp(join(tmpdir(), 'scigate-approval-full-'));
    const dataDir = join(root, 'data');
    gateway = await startGateway(dataDir, {});
    const created = await gateway.api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
    const write = created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name;
    const client = await gateway.connect('approval-full-disk');
    const sessionId = (await gateway.api.get('/api/sessions')).body.sessions.find((s: any) => s.clientName === 'approval-full-disk').id;
    const call = client.callTool({ name: write, arguments: { text: 'kept waiting' } }, undefined, { timeout: 120_000 });
    const request = await pendingRequest(gateway, sessionId);

    // A file-size cap on the gateway stands in for a full disk: no journal line can be appended.
    capFileSize(gateway.pid, (await stat(join(dataDir, 'scigate.db.journal'))).size);
    const refused = await gateway.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' });
    expect([refused.status, refused.body.error.code]).toEqual([503, 'storage_unavailable']);
    expect(upstream.calls).toEqual([]);

    capFileSize(gateway.pid, undefined);
    const decided = await gateway.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' });
    expect([decided.status, decided.body.request?.status]).toEqual([200, 'allowed']);
    expect(answerOf(await call).code).toBe('ok');
    expect(upstream.calls.map((c) => c.args.text)).toEqual(['kept waiting']);
    const authorizations = (await gateway.api.get(`/api/sessions/${sessionId}/authorizations`)).body.authorizations;
    expect(authorizations.map((a: any) => [a.requestId, a.basis, a.allowed])).toEqual([[request.id, 'allow_once', true]]);
  });
});
