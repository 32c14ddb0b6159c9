import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway.dispose();
});

async function patch(id: string, body: unknown) {
  const response = await fetch(`${gateway.url}/api/sessions/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('PATCH /api/sessions/:id', () => {
  it('changes the approval mode and the connector selection in one request', async () => {
    await gateway.connect();
    const sessions = (await (await fetch(`${gateway.url}/api/sessions`, { headers: { authorization: `Bearer ${gateway.token}` } })).json()) as any;
    const id = sessions.sessions[0].id;
    const both = await patch(id, { approvalMode: 'never_ask', connectors: ['arxiv'] });
    expect(both.status).toBe(200);
    expect(both.body.session).toMatchObject({ approvalMode: 'always_allow', connectors: ['arxiv'] });
    const back = await patch(id, { connectors: null });
    expect(back.body.session).toMatchObject({ approvalMode: 'always_allow', connectors: null });
  });

  it('rejects an empty body, an unknown field and an unknown mode with 400 naming the problem', async () => {
    const sessions = (await (await fetch(`${gateway.url}/api/sessions`, { headers: { authorization: `Bearer ${gateway.token}` } })).json()) as any;
    const id = sessions.sessions[0].id;
    expect((await patch(id, {})).body.error.message).toContain('approvalMode');
    const unknown = await patch(id, { approval: 'always_allow' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('approval');
    expect((await patch(id, { approvalMode: 'sometimes' })).status).toBe(400);
    expect((await patch('ses_missing', { approvalMode: 'always_allow' })).status).toBe(404);
  });
});
