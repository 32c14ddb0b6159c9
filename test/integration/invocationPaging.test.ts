import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway.dispose();
});

async function get(path: string) {
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${gateway.token}` } });
  return { status: response.status, body: (await response.json()) as any };
}

describe('a Session\'s invocations over the admin API', () => {
  it('page newest first with ?limit and ?before=<the previous page\'s next>, every call once', async () => {
    const client = await gateway.connect({ project: 'paging' });
    const called: string[] = [];
    // Refused by validation: audited like any call, without reaching a provider.
    for (let i = 0; i < 5; i++) {
      const result = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: i } })) as any;
      called.push(result.structuredContent.invocationId);
    }
    const session = (await get('/api/sessions')).body.sessions.find((s: any) => s.projectId === 'paging');
    const pages: Array<Array<{ id: string; startedAt: string }>> = [];
    let before: string | null = null;
    do {
      const page: { status: number; body: any } = await get(`/api/sessions/${session.id}/invocations?limit=2${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.body.invocations.map((i: any) => ({ id: i.id, startedAt: i.startedAt })));
      before = page.body.next;
    } while (before);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const rows = pages.flat();
    expect(rows.map((r) => r.id).sort()).toEqual([...called].sort());
    // Newest first; calls that started in the same millisecond by id.
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a.startedAt > b.startedAt || (a.startedAt === b.startedAt && a.id < b.id)).toBe(true);
    }
  });

  it('a cursor that is not an invocation of this Session is invalid_input naming `before`', async () => {
    const session = (await get('/api/sessions')).body.sessions[0];
    const refused = await get(`/api/sessions/${session.id}/invocations?before=inv_nope`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_input' });
    expect(refused.body.error.message).toContain('before');
  });

  it('a page size that is not a whole number from 1 to 1000 is invalid_input naming `limit`, not quietly replaced', async () => {
    const session = (await get('/api/sessions')).body.sessions[0];
    for (const limit of ['abc', '0', '-1', '2.5', '1001', '1e3']) {
      const refused = await get(`/api/sessions/${session.id}/invocations?limit=${limit}`);
      expect(refused.status, limit).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_input', details: { field: 'limit' } });
    }
    expect((await get(`/api/sessions/${session.id}/invocations?limit=1000`)).status).toBe(200);
  });
});
