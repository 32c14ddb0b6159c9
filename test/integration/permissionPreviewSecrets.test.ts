import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { openEventStream, type EventStream } from '../fixtures/eventStream.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const HEADER_SECRET = 'hdr-key-7f3a90c21e';

let upstream: DangerousHttpServer;
let gateway: TestGateway;
let api: AdminApi;
let events: EventStream;
let write: string;

beforeAll(async () => {
  [upstream, gateway] = await Promise.all([startDangerousHttpServer(), startTestGateway()]);
  api = adminApi(gateway);
  events = await openEventStream(gateway);
  const created = await api.post('/api/mcp/servers', {
    name: 'keyed notes', transport: 'http', url: upstream.url, enabled: true, headers: [{ key: 'X-Api-Key', value: HEADER_SECRET }],
  });
  expect(created.status).toBe(201);
  write = created.body.server.tools.find((t: { upstreamName: string }) => t.upstreamName === 'write_note').name;
});
afterAll(async () => {
  events.close();
  await gateway?.dispose();
  await upstream?.close();
});

describe('the argument preview of a permission request', () => {
  it('shows a configured secret the agent passed along scrubbed, in the list and on the event stream', async () => {
    const client = await gateway.connect({ name: 'preview-agent' });
    const sessionId = (await api.sessionOf('preview-agent')).id;
    const call = client.callTool({ name: write, arguments: { text: `key is ${HEADER_SECRET}` } });
    call.catch(() => {});
    const created = await events.next((e) => e.type === 'permission_request.created' && e.sessionId === sessionId);
    expect(created.data.argumentsPreview).toBe('{"text":"key is [redacted]"}');
    const listed = await api.get(`/api/sessions/${sessionId}/permission-requests`);
    expect(listed.body.requests).toEqual([expect.objectContaining({ id: created.data.id, argumentsPreview: '{"text":"key is [redacted]"}' })]);
    expect(listed.text).not.toContain(HEADER_SECRET);
    // The decision still lets the call through with the arguments as the agent sent them.
    expect((await api.post(`/api/permission-requests/${created.data.id}/decision`, { decision: 'allow_once' })).status).toBe(200);
    await call;
    expect(upstream.calls.at(-1)).toMatchObject({ tool: 'write_note', args: { text: `key is ${HEADER_SECRET}` } });
  });
});
