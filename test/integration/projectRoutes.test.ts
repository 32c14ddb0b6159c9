import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
let api: AdminApi;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
});

describe('PATCH /api/projects/:id', () => {
  it('an id no Project can have is invalid_input naming the id rule, not a 404 that sends the admin to a POST refusing it', async () => {
    for (const id of ['bad id!', 'x'.repeat(65), 'ünïcode']) {
      const answer = await api.patch(`/api/projects/${encodeURIComponent(id)}`, { name: 'x' });
      expect(answer.status, id).toBe(400);
      expect(answer.body.error, id).toMatchObject({ code: 'invalid_input', details: { field: 'id' } });
      expect(answer.body.error.message, id).toContain('must be 1–64 letters, digits, _ or -');
      // The id rule is the one POST applies.
      expect((await api.post('/api/projects', { id })).body.error.message, id).toContain('must be 1–64 letters, digits, _ or -');
    }
    const missing = await api.patch('/api/projects/not-created', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('create it with POST /api/projects');
    expect((await api.post('/api/projects', { id: 'not-created' })).status).toBe(201);
    expect((await api.patch('/api/projects/not-created', { name: 'Named' })).body.project).toMatchObject({ id: 'not-created', name: 'Named' });
  });
});
