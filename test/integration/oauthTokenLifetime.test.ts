import type { RequestHandler } from 'express';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../fixtures/brokerDoubles.js';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { logIn } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/** Access tokens of 30 s (shorter than the minute before expiry in which a token is renewed before use), and their renewal. */
let upstream: ProtectedMcp;
let gateway: TestGateway;
let api: AdminApi;
let agent: Client;
beforeAll(async () => {
  upstream = await startProtectedMcp({ accessTtlSeconds: 30 });
  gateway = await startTestGateway();
  api = adminApi(gateway);
  agent = await gateway.connect({ name: 'lifetime-agent' });
  await allowEverything(api, (await api.sessionOf('lifetime-agent')).id);
});
afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

/** Logs in to a new server of the gateway `on` (the provider answering tokens through `hook`) and answers its echo tool. */
async function loggedInServer(name: string, hook?: RequestHandler, on: AdminApi = api): Promise<{ id: string; tool: string }> {
  const created = await on.post('/api/mcp/servers', { name, transport: 'http', url: upstream.mcpUrl, enabled: true, auth: { mode: 'oauth' } });
  const id = created.body.server.id as string;
  upstream.asHook = hook;
  try {
    expect((await logIn(on, id)).callback.status).toBe(200);
  } finally {
    upstream.asHook = undefined;
  }
  const tool = await vi.waitFor(
    async () => {
      const found = (await on.get(`/api/mcp/servers/${id}`)).body.server.tools.find((t: any) => t.upstreamName === 'echo');
      if (!found) throw new Error('not discovered yet');
      return found.name as string;
    },
    { timeout: 60_000, interval: 50 },
  );
  return { id, tool };
}

/** The token endpoint's answers without a refresh token (a provider that issues none). */
const withoutRefreshToken: RequestHandler = (req, res, next) => {
  if (req.path !== '/token') return next();
  const json = res.json.bind(res);
  res.json = (body: { refresh_token?: string }) => json(Object.fromEntries(Object.entries(body ?? {}).filter(([key]) => key !== 'refresh_token')));
  next();
};

describe('access tokens that live less than two minutes', () => {
  it('are used while fresh, not renewed before every call', async () => {
    const { tool } = await loggedInServer('Short lived');
    const refreshes = upstream.provider.refreshes;
    for (const message of ['one', 'two', 'three']) {
      const result = (await agent.callTool({ name: tool, arguments: { message } })) as any;
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
    }
    expect(upstream.provider.refreshes).toBe(refreshes);
  });

  it('without a refresh token: the fresh token is sent, and the login is not dropped as expired', async () => {
    const { id, tool } = await loggedInServer('No refresh token', withoutRefreshToken);
    const result = (await agent.callTool({ name: tool, arguments: { message: 'fresh' } })) as any;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect((await api.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');
  });
});

describe('a refresh the provider cannot answer now', () => {
  it.each([
    [503, 'temporarily_unavailable'],
    [429, 'too_many_requests'],
    [500, 'invalid_request'],
  ])('a refresh answered %i %s is a passing failure: the call says to try again, and the login stays for the next one', async (status, error) => {
    const { id, tool } = await loggedInServer(`Busy provider ${status}`);
    upstream.provider.advance(31_000);
    upstream.asHook = (req, res, next) => (req.path === '/token' ? void res.status(status).json({ error }) : next());
    try {
      const busy = (await agent.callTool({ name: tool, arguments: { message: 'busy' } })) as any;
      expect(busy.structuredContent.error).toMatchObject({ code: 'upstream_unavailable', retryable: true, message: expect.stringMatching(/try again shortly/) });
      expect((await api.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');
    } finally {
      upstream.asHook = undefined;
    }
    const later = (await agent.callTool({ name: tool, arguments: { message: 'later' } })) as any;
    expect(later.isError, JSON.stringify(later)).toBeFalsy();
  });
});

describe('a renewal before expiry that the provider cannot answer now', () => {
  it('the call goes through with the token in hand; once that token has expired the call says to try again', async () => {
    // The gateway's own clock decides when its token is due (15 s before the end of its 30 s lifetime) and when it has expired.
    const clock = new FakeClock();
    const early = await startTestGateway({}, undefined, { clock });
    try {
      const earlyApi = adminApi(early);
      const earlyAgent = await early.connect({ name: 'early-renewal-agent' });
      await allowEverything(earlyApi, (await earlyApi.sessionOf('early-renewal-agent')).id);
      const { id, tool } = await loggedInServer('Early renewal', undefined, earlyApi);
      const tokenRequests = () => upstream.asRequests.filter((r) => r.path === '/token').length;
      upstream.asHook = (req, res, next) => (req.path === '/token' ? void res.status(503).json({ error: 'temporarily_unavailable' }) : next());
      try {
        clock.advance(20_000);
        const asked = tokenRequests();
        const valid = (await earlyAgent.callTool({ name: tool, arguments: { message: 'still valid' } })) as any;
        expect(valid.isError, JSON.stringify(valid)).toBeFalsy();
        expect(JSON.stringify(valid.content)).toContain('Echo: still valid');
        // The renewal runs beside the call, which does not wait for it.
        await vi.waitFor(() => expect(tokenRequests()).toBeGreaterThan(asked));
        expect((await earlyApi.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');
        clock.advance(10_000);
        const expired = (await earlyAgent.callTool({ name: tool, arguments: { message: 'expired' } })) as any;
        expect(expired.structuredContent.error).toMatchObject({ code: 'upstream_unavailable', retryable: true, message: expect.stringMatching(/try again shortly/) });
      } finally {
        upstream.asHook = undefined;
      }
      const later = (await earlyAgent.callTool({ name: tool, arguments: { message: 'later' } })) as any;
      expect(later.isError, JSON.stringify(later)).toBeFalsy();
    } finally {
      await early.dispose();
    }
  });

  it('a token endpoint that holds its answer does not hold the call: it goes through with the token in hand at once', async () => {
    const clock = new FakeClock();
    const early = await startTestGateway({}, undefined, { clock });
    // Token requests the provider holds, and whether the gateway gave up on each (its provider timeout).
    const held: Array<{ release: () => void; abandoned: boolean }> = [];
    try {
      const earlyApi = adminApi(early);
      const earlyAgent = await early.connect({ name: 'held-renewal-agent' });
      await allowEverything(earlyApi, (await earlyApi.sessionOf('held-renewal-agent')).id);
      const { id, tool } = await loggedInServer('Held renewal', undefined, earlyApi);
      upstream.asHook = (req, res, next) => {
        if (req.path !== '/token') return next();
        const request = { release: next, abandoned: false };
        res.on('close', () => (request.abandoned ||= !res.writableFinished));
        held.push(request);
      };
      // 10 s before the end of its 30 s lifetime: due for renewal, still valid.
      clock.advance(20_000);
      for (const message of ['one', 'two']) {
        const result = (await earlyAgent.callTool({ name: tool, arguments: { message } })) as any;
        expect(result.isError, JSON.stringify(result)).toBeFalsy();
      }
      // One renewal for both calls, still waiting for the provider's answer.
      await vi.waitFor(() => expect(held).toHaveLength(1));
      expect(held[0]!.abandoned).toBe(false);
      const refreshes = upstream.provider.refreshes;
      upstream.asHook = undefined;
      held.splice(0).forEach((request) => request.release());
      await vi.waitFor(() => expect(upstream.provider.refreshes).toBe(refreshes + 1));
      expect((await earlyApi.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');
    } finally {
      upstream.asHook = undefined;
      held.splice(0).forEach((request) => request.abandoned || request.release());
      await early.dispose();
    }
  });
});
