import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logIn } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { useRestartableGateways } from '../fixtures/restartableGateways.js';

let upstream: ProtectedMcp;
beforeAll(async () => {
  upstream = await startProtectedMcp({ accessTtlSeconds: 120 });
});
afterAll(async () => {
  await upstream?.close();
});

describe('a saved OAuth login across a restart', () => {
  const gateways = useRestartableGateways('scigate-oauth-');

  it('cleared before the restart: a call by the old name is auth_required saying how to log in, not "list the tools again"', async () => {
    await gateways.freshDir();
    const first = await gateways.start();
    const created = await first.api.post('/api/mcp/servers', { name: 'Relogin', transport: 'http', url: upstream.mcpUrl, enabled: true, auth: { mode: 'oauth' } });
    const id = created.body.server.id;
    expect((await logIn(first.api, id)).callback.status).toBe(200);
    const tool = await vi.waitFor(
      async () => {
        const found = (await first.api.get(`/api/mcp/servers/${id}`)).body.server.tools.find((t: any) => t.upstreamName === 'echo');
        if (!found) throw new Error('not discovered yet');
        return found.name as string;
      },
      { timeout: 60_000, interval: 50 },
    );
    expect((await first.api.post(`/api/mcp/servers/${id}/oauth/clear`)).status).toBe(200);
    await first.gateway.dispose();
    // Tool lists are not saved: after the restart the server, wanting a login, lists none.
    const second = await gateways.start();
    await vi.waitFor(async () => expect((await second.api.get(`/api/mcp/servers/${id}`)).body.server.connection.state).toBe('error'), { timeout: 60_000, interval: 50 });
    const returning = await second.gateway.connect({ name: 'returning-agent' });
    const result = (await returning.callTool({ name: tool, arguments: { message: 'x' } })) as any;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'auth_required', message: expect.stringMatching(/could not list its tools: .*oauth\/start/s) });
    const unrelated = (await returning.callTool({ name: 'mcp__nothing__here', arguments: {} })) as any;
    expect(unrelated.structuredContent.error).toMatchObject({ code: 'tool_unavailable', message: expect.stringMatching(/list the tools again/) });
  });

  it('is kept encrypted in mcp-oauth.enc and used after the restart without a new login', async () => {
    await gateways.freshDir();
    const first = await gateways.start();
    const created = await first.api.post('/api/mcp/servers', { name: 'Kept', transport: 'http', url: upstream.mcpUrl, enabled: true, auth: { mode: 'oauth' } });
    expect((await logIn(first.api, created.body.server.id)).callback.status).toBe(200);
    await first.gateway.dispose();
    const saved = await readFile(join(first.gateway.dataDir, 'mcp-oauth.enc'));
    expect(saved.toString('latin1')).not.toContain(upstream.provider.issued.accessTokens.at(-1)!);
    const authorizations = upstream.provider.authorizations.length;
    const second = await gateways.start();
    const view = (await second.api.get(`/api/mcp/servers/${created.body.server.id}`)).body.server;
    expect(view.authState).toBe('authorized');
    expect((await second.api.post(`/api/mcp/servers/${created.body.server.id}/test`)).body.ok).toBe(true);
    expect(upstream.provider.authorizations.length).toBe(authorizations);
  });

  it('a token lifetime no date can show (expires_in 1e13 s): the login completes, the server list answers, and the gateway starts again', async () => {
    await gateways.freshDir();
    const first = await gateways.start();
    const created = await first.api.post('/api/mcp/servers', { name: 'Forever', transport: 'http', url: upstream.mcpUrl, enabled: true, auth: { mode: 'oauth' } });
    const id = created.body.server.id;
    upstream.asHook = tokenLifetime(1e13);
    try {
      expect((await logIn(first.api, id)).callback).toMatchObject({ status: 200, text: expect.stringContaining('now logged in') });
    } finally {
      upstream.asHook = undefined;
    }
    expect((await first.api.get('/api/mcp/servers')).status).toBe(200);
    expect((await first.api.get(`/api/mcp/servers/${id}`)).body.server).toMatchObject({ authState: 'authorized', authExpiresAt: null });
    await first.gateway.dispose();
    const second = await gateways.start();
    expect((await second.api.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');
    expect((await second.api.post(`/api/mcp/servers/${id}/test`)).body.ok).toBe(true);
  });
});

/** Rewrites the `expires_in` of every token the authorization server issues (a provider's own idea of a lifetime). */
function tokenLifetime(expiresIn: number): RequestHandler {
  return (req, res, next) => {
    if (req.path !== '/token') return next();
    const json = res.json.bind(res);
    res.json = (body: { access_token?: string }) => json(body?.access_token ? { ...body, expires_in: expiresIn } : body);
    next();
  };
}
