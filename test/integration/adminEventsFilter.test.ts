import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.dispose();
});

async function openStream(query: string): Promise<{ status: number; body: any }> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}/api/events${query}`, {
    headers: { authorization: `Bearer ${gateway.token}`, accept: 'text/event-stream' }, signal: controller.signal,
  });
  const body = response.headers.get('content-type')?.startsWith('application/json') ? await response.json() : null;
  controller.abort();
  return { status: response.status, body };
}

describe('GET /api/events filters', () => {
  it('a sessionId given twice, or a filter it does not know, is refused: never every Session\'s events in its place', async () => {
    await gateway.connect({ name: 'filter-a' });
    await gateway.connect({ name: 'filter-b' });
    const api = adminApi(gateway);
    const [a, b] = [await api.sessionOf('filter-a'), await api.sessionOf('filter-b')];
    const twice = await openStream(`?sessionId=${a.id}&sessionId=${b.id}`);
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({ code: 'invalid_input', details: { field: 'sessionId' } });
    for (const unknown of [`?session=${a.id}`, `?projectId=x`, `?sessionId[]=${a.id}`]) {
      const refused = await openStream(unknown);
      expect(refused.status, unknown).toBe(400);
      expect(refused.body.error.code, unknown).toBe('invalid_input');
      expect(refused.body.error.message, unknown).toContain('sessionId');
    }
    expect((await openStream(`?sessionId=${a.id}`)).status).toBe(200);
  });
});
