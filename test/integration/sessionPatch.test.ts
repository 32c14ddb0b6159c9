import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway.dispose();
});

const api = () => request(gateway.url);
const auth = () => ({ authorization: `Bearer ${gateway.token}` });
const patch = (id: string, body: object) => api().patch(`/api/sessions/${id}`).set(auth()).send(body);
const firstSessionId = async (): Promise<string> => (await api().get('/api/sessions').set(auth()).expect(200)).body.sessions[0].id;

describe('PATCH /api/sessions/:id', () => {
  it('changes the approval mode and the connector selection in one request', async () => {
    await gateway.connect();
    const id = await firstSessionId();
    const both = await patch(id, { approvalMode: 'always_allow', connectors: ['arxiv'] }).expect(200);
    expect(both.body.session).toMatchObject({ approvalMode: 'always_allow', connectors: ['arxiv'] });
    const back = await patch(id, { connectors: null }).expect(200);
    expect(back.body.session).toMatchObject({ approvalMode: 'always_allow', connectors: null });
  });

  it('rejects an empty body, an unknown field and an unknown mode with 400 naming the problem', async () => {
    const id = await firstSessionId();
    expect((await patch(id, {}).expect(400)).body.error.message).toContain('approvalMode');
    const unknown = await patch(id, { approval: 'always_allow' }).expect(400);
    expect(unknown.body.error.message).toContain('approval');
    expect((await patch(id, { approvalMode: 'sometimes' }).expect(400)).body.error.message).toBe('approvalMode: must be "ask_for_dangerous" or "always_allow"');
    await patch('ses_missing', { approvalMode: 'always_allow' }).expect(404);
  });

  it('refuses the legacy never_ask (400) instead of silently allowing everything, saying which value to send', async () => {
    await gateway.connect();
    const sessions = (await api().get('/api/sessions').set(auth()).expect(200)).body.sessions;
    const asking = sessions.find((s: any) => s.approvalMode === 'ask_for_dangerous');
    const refused = await patch(asking.id, { approvalMode: 'never_ask' }).expect(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_input' });
    expect(refused.body.error.message).toMatch(/^approvalMode: must be "ask_for_dangerous" or "always_allow"; "never_ask" is an old name/);
    expect(refused.body.error.message).toContain('Send "always_allow" to run dangerous actions without asking');
    expect((await api().get(`/api/sessions/${asking.id}`).set(auth()).expect(200)).body.session).toEqual(asking);
  });

  it('refuses a JSON body sent without content-type: application/json (415) and changes nothing', async () => {
    const id = await firstSessionId();
    const before = (await api().get(`/api/sessions/${id}`).set(auth()).expect(200)).body.session;
    const refused = await api()
      .patch(`/api/sessions/${id}`)
      .set(auth())
      .set('content-type', 'text/plain')
      .send(JSON.stringify({ approvalMode: 'ask_for_dangerous' }))
      .expect(415)
      .expect('content-type', /application\/json/);
    expect(refused.body.error.code).toBe('unsupported_media_type');
    expect((await api().get(`/api/sessions/${id}`).set(auth()).expect(200)).body.session).toEqual(before);
  });
});
