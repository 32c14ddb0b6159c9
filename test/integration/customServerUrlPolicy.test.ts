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

const create = (url: string, name = 'remote') =>
  request(gateway.url).post('/api/mcp/servers').set('authorization', `Bearer ${gateway.token}`).send({ name, transport: 'http', url });

describe('custom server URLs (SSRF policy)', () => {
  it("refuses the gateway's own /mcp endpoint, on create, update and import", async () => {
    const refused = await create(gateway.mcpUrl).expect(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^url: points at this gateway itself/) });
    const viaLocalhost = gateway.mcpUrl.replace('127.0.0.1', 'localhost');
    await create(viaLocalhost).expect(400);
    const saved = await create('http://127.0.0.1:9/mcp', 'elsewhere').expect(201);
    const patched = await request(gateway.url)
      .patch(`/api/mcp/servers/${saved.body.server.id}`)
      .set('authorization', `Bearer ${gateway.token}`)
      .send({ url: gateway.mcpUrl })
      .expect(400);
    expect(patched.body.error.message).toMatch(/^url: points at this gateway itself/);
    const imported = await request(gateway.url)
      .post('/api/mcp/servers/import')
      .set('authorization', `Bearer ${gateway.token}`)
      .send({ mcpServers: { loop: { url: gateway.mcpUrl } } })
      .expect(400);
    expect(imported.body.error.message).toMatch(/^mcpServers\.loop\.url: points at this gateway itself/);
  });

  it('refuses metadata and link-local addresses and, by default, private ranges; loopback stays allowed', async () => {
    expect((await create('http://169.254.169.254/latest/meta-data/', 'meta').expect(400)).body.error.message).toMatch(/link-local/);
    expect((await create('http://metadata.google.internal/', 'meta').expect(400)).body.error.message).toMatch(/metadata/);
    expect((await create('http://192.168.1.10:8080/mcp', 'lan').expect(400)).body.error.message).toMatch(/--allow-private-urls/);
    await create('http://127.0.0.1:9/other', 'local').expect(201);
  });
});
