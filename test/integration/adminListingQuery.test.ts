import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
let api: AdminApi;
let sessionId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const client = await gateway.connect({ name: 'query-agent' });
  // Refused by validation: audited like any call, without reaching a provider.
  for (let i = 0; i < 3; i++) await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: i } });
  sessionId = (await api.sessionOf('query-agent')).id;
});
afterAll(async () => {
  await gateway?.dispose();
});

function expectRefused(answer: { status: number; body: any }, field: string): void {
  expect(answer.status).toBe(400);
  expect(answer.body.error).toMatchObject({ code: 'invalid_input', details: { field } });
}

describe('the query of a listing route', () => {
  it('a cursor under a name the invocations route does not take is refused, not answered with the first page again', async () => {
    const first = await api.get(`/api/sessions/${sessionId}/invocations?limit=2`);
    expect(first.body.invocations).toHaveLength(2);
    const misnamed = await api.get(`/api/sessions/${sessionId}/invocations?limit=2&cursor=${first.body.next}`);
    expectRefused(misnamed, 'cursor');
    expect(misnamed.body.error.message).toContain('limit, before');
    expectRefused(await api.get(`/api/sessions/${sessionId}/invocations?before=${first.body.next}&before=${first.body.next}`), 'before');
    const next = await api.get(`/api/sessions/${sessionId}/invocations?limit=2&before=${first.body.next}`);
    expect(next.body.invocations).toHaveLength(1);
  });

  it('a misspelt status filter of the permission requests is refused, not answered with every request', async () => {
    expectRefused(await api.get(`/api/sessions/${sessionId}/permission-requests?state=pending`), 'state');
    expectRefused(await api.get(`/api/sessions/${sessionId}/permission-requests?status=pending&status=denied`), 'status');
    expect((await api.get(`/api/sessions/${sessionId}/permission-requests?status=pending`)).status).toBe(200);
  });
});
