import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminApi, allowEverything, type AdminApi, type ApiResponse } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { openEventStream } from '../fixtures/eventStream.js';
import { approve, logIn, openCallback } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let upstream: ProtectedMcp;
let gateway: TestGateway;
let api: AdminApi;
let agent: Client;
const log = captureLogger();
/** Every admin API answer of this file, for the final grep for secrets. */
const answers: string[] = [];

function recorded(inner: AdminApi): AdminApi {
  const keep = async (pending: Promise<ApiResponse>) => {
    const response = await pending;
    answers.push(response.text);
    return response;
  };
  return { ...inner, get: (p) => keep(inner.get(p)), post: (p, b) => keep(inner.post(p, b)), patch: (p, b) => keep(inner.patch(p, b)), del: (p) => keep(inner.del(p)) };
}

const serverView = async (id: string) => (await api.get(`/api/mcp/servers/${id}`)).body.server;
const toolCalls = () => upstream.requests.filter((r) => r.method === 'tools/call');

async function createOAuthServer(name: string, extra: Record<string, unknown> = {}) {
  const created = await api.post('/api/mcp/servers', { name, transport: 'http', url: upstream.mcpUrl, enabled: true, auth: { mode: 'oauth' }, ...extra });
  expect(created.status, created.text).toBe(201);
  return created.body.server;
}

async function echoTool(id: string): Promise<string> {
  const server = await vi.waitFor(
    async () => {
      const view = await serverView(id);
      if (!view.tools.some((t: any) => t.upstreamName === 'echo')) throw new Error('not discovered yet');
      return view;
    },
    { timeout: 60_000, interval: 50 },
  );
  return server.tools.find((t: any) => t.upstreamName === 'echo').name;
}

beforeAll(async () => {
  upstream = await startProtectedMcp({ accessTtlSeconds: 120 });
  gateway = await startTestGateway({}, undefined, { log });
  api = recorded(adminApi(gateway));
  agent = await gateway.connect({ name: 'oauth-agent' });
  await allowEverything(api, (await api.sessionOf('oauth-agent')).id);
});
afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

describe('OAuth for a custom http server, against a real authorization server', () => {
  let serverId: string;
  let tool: string;

  it('before a login, the 401 makes the server "required" with a message to log in, never "could not be reached"', async () => {
    serverId = (await createOAuthServer('Protected')).id;
    const view = await vi.waitFor(async () => {
      const v = await serverView(serverId);
      if (v.connection.state !== 'error') throw new Error('still discovering');
      return v;
    }, { timeout: 60_000, interval: 50 });
    expect(view).toMatchObject({ authState: 'required', auth: { mode: 'oauth', clientId: null, clientSecret: null } });
    expect(view.connection.message).toMatch(/oauth\/start/);
    expect(view.connection.message).not.toMatch(/could not be reached/);
    expect(view.authMessage).toMatch(/log in/);
  });

  it('refuses a callback URL on another origin than the one the admin uses', async () => {
    const refused = await api.post(`/api/mcp/servers/${serverId}/oauth/start`, { redirectUri: 'http://attacker.example/api/mcp/oauth/callback' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^redirectUri: .*\/api\/mcp\/oauth\/callback/);
    expect((await serverView(serverId)).authState).toBe('required');
  });

  it('logs in through the callback: discovery, dynamic registration, PKCE S256 checked by the server, resource indicator', async () => {
    const events = await openEventStream(gateway);
    const login = await logIn(api, serverId);
    const authorized = await events.next((e) => e.type === 'custom_server.oauth' && e.data.authState === 'authorized', 20_000);
    expect(authorized.data).toMatchObject({ serverId, authState: 'authorized' });
    events.close();
    expect(login.authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(login.authorizationUrl.searchParams.get('resource')).toBe(upstream.mcpUrl);
    expect(login.callbackUrl.startsWith(`${gateway.url}/api/mcp/oauth/callback?`)).toBe(true);
    expect(login.callback.status).toBe(200);
    expect(login.callback.text).toContain('Login complete');
    expect(login.callback.text).toContain('Protected');
    const code = new URL(login.callbackUrl).searchParams.get('code')!;
    expect(login.callback.text).not.toContain(code);
    // The SDK's token handler compares the verifier with the S256 challenge before the provider issues tokens.
    expect(upstream.provider.codeExchanges).toBe(1);
    expect((await serverView(serverId)).authState).toBe('authorized');
    tool = await echoTool(serverId);
    const result = (await agent.callTool({ name: tool, arguments: { message: 'hi' } })) as any;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('Echo: hi');
    expect(toolCalls().at(-1)?.authorization).toBe(`Bearer ${upstream.provider.issued.accessTokens.at(-1)}`);
  });

  it('refuses a replayed callback: the state was consumed before the code exchange', async () => {
    const login = await logIn(api, serverId);
    expect(login.callback.status).toBe(200);
    const exchanges = upstream.provider.codeExchanges;
    const replay = await openCallback(login.callbackUrl);
    expect(replay.status).toBe(400);
    expect(replay.text).toMatch(/unknown, expired or was already used/);
    expect(upstream.provider.codeExchanges).toBe(exchanges);
  });

  it('a code the provider refuses is sent once, and the status says the earlier login is still in use', async () => {
    await logIn(api, serverId);
    const started = await api.post(`/api/mcp/servers/${serverId}/oauth/start`);
    const callbackUrl = new URL(await approve(started.body.authorizationUrl));
    callbackUrl.searchParams.set('code', 'refused-code');
    const presented = upstream.provider.codesPresented;
    const refused = await openCallback(callbackUrl.href);
    expect(refused.status).toBe(502);
    expect(refused.text).toContain('the provider refused the authorization code');
    expect(upstream.provider.codesPresented - presented).toBe(1);
    expect(await serverView(serverId)).toMatchObject({ authState: 'authorized', authMessage: expect.stringContaining('the earlier login is still in use') });
    expect(((await agent.callTool({ name: tool, arguments: { message: 'still in' } })) as any).isError).toBeFalsy();
  });

  it('a client the provider no longer knows is named as such, not as a refused code', async () => {
    await logIn(api, serverId);
    const started = await api.post(`/api/mcp/servers/${serverId}/oauth/start`);
    const callbackUrl = await approve(started.body.authorizationUrl);
    const remember = upstream.provider.forgetClients();
    try {
      const refused = await openCallback(callbackUrl);
      expect(refused.status).toBe(502);
      expect(refused.text).toContain('the provider refused this client (invalid_client');
      expect(refused.text).not.toContain('authorization code');
    } finally {
      remember();
    }
    // The next login does not offer the refused registration again: it registers anew.
    const clients = upstream.provider.registrations;
    await logIn(api, serverId);
    expect(upstream.provider.registrations).toBe(clients + 1);
    expect(((await agent.callTool({ name: tool, arguments: { message: 'still in' } })) as any).isError).toBeFalsy();
  });

  it('cancel ends a pending login (its callback is refused) and keeps the saved credentials', async () => {
    const started = await api.post(`/api/mcp/servers/${serverId}/oauth/start`);
    expect(started.body).toMatchObject({ authorizationUrl: expect.any(String), expiresAt: expect.any(String) });
    expect((await serverView(serverId)).authState).toBe('authorizing');
    const cancelled = await api.post(`/api/mcp/servers/${serverId}/oauth/cancel`);
    expect(cancelled.body.server.authState).toBe('authorized');
    const callback = await openCallback(await approve(started.body.authorizationUrl));
    expect(callback.status).toBe(400);
    expect(((await agent.callTool({ name: tool, arguments: { message: 'still in' } })) as any).isError).toBeFalsy();
  });

  it('an expired access token is refreshed without a new login: one 401, one refresh, exactly one resend', async () => {
    const authorizations = upstream.provider.authorizations.length;
    const refreshes = upstream.provider.refreshes;
    const before = toolCalls().length;
    upstream.provider.advance(121_000);
    const result = (await agent.callTool({ name: tool, arguments: { message: 'after expiry' } })) as any;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(toolCalls().slice(before).map((r) => r.status)).toEqual([401, 200]);
    expect(upstream.provider.refreshes).toBe(refreshes + 1);
    expect(upstream.provider.authorizations.length).toBe(authorizations);
    expect((await serverView(serverId)).authState).toBe('authorized');
  });

  it('concurrent 401s share one refresh (the refresh token rotates, so a second refresh would fail)', async () => {
    const refreshes = upstream.provider.refreshes;
    upstream.provider.advance(121_000);
    const results = (await Promise.all([1, 2, 3].map((n) => agent.callTool({ name: tool, arguments: { message: `c${n}` } })))) as any[];
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false]);
    expect(upstream.provider.refreshes).toBe(refreshes + 1);
  });

  it('the connection test and the Inspector use the same login', async () => {
    const authorizations = upstream.provider.authorizations.length;
    const tested = await api.post(`/api/mcp/servers/${serverId}/test`);
    expect(tested.body, tested.text).toMatchObject({ ok: true });
    expect(upstream.requests.at(-1)?.authorization).toMatch(/^Bearer atoken_/);
    const sessionId = (await api.sessionOf('oauth-agent')).id;
    const toolId = (await serverView(serverId)).tools.find((t: any) => t.upstreamName === 'echo').toolId;
    const inspected = await api.post(`/api/mcp/servers/${serverId}/inspect`, { sessionId, toolId, arguments: { message: 'inspected' } });
    expect(inspected.body, inspected.text).toMatchObject({ ok: true, raw: { content: [{ type: 'text', text: 'Echo: inspected' }] } });
    expect(upstream.provider.authorizations.length).toBe(authorizations);
  });

  it('a 403 insufficient_scope moves the server to "required" with the scope to consent to', async () => {
    upstream.requiredScopes = ['mcp:admin'];
    try {
      const result = (await agent.callTool({ name: tool, arguments: { message: 'more' } })) as any;
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('mcp:admin') });
      const view = await serverView(serverId);
      expect(view).toMatchObject({ authState: 'required', requiredScope: 'mcp:admin' });
      // Consenting again asks for the scope the server named.
      const login = await logIn(api, serverId);
      expect(login.authorizationUrl.searchParams.get('scope')).toBe('mcp:admin');
      expect(login.callback.status).toBe(200);
      expect(((await agent.callTool({ name: tool, arguments: { message: 'admin' } })) as any).isError).toBeFalsy();
    } finally {
      upstream.requiredScopes = [];
    }
  });

  it('a scope the provider never grants: one step-up login, then "refused" with the reason, and no discovery retry in between', async () => {
    upstream.requiredScopes = ['mcp:admin'];
    upstream.provider.withheld.add('mcp:admin');
    const refusedWith = (token: string) => upstream.requests.filter((r) => r.authorization === `Bearer ${token}` && r.status === 403).length;
    try {
      const id = (await createOAuthServer('Scope withheld')).id;
      expect((await logIn(api, id)).callback.status).toBe(200);
      const firstToken = upstream.provider.issued.accessTokens.at(-1)!;
      const consent = await vi.waitFor(async () => {
        const v = await serverView(id);
        if (v.requiredScope === null) throw new Error('the discovery after the login has not met the 403 yet');
        return v;
      }, { timeout: 60_000, interval: 50 });
      expect(consent).toMatchObject({ authState: 'required', requiredScope: 'mcp:admin', authMessage: expect.stringContaining('needs consent to the scope "mcp:admin"') });
      // The step-up: the admin logs in again, and the login asks for the scope the server named.
      const stepUp = await logIn(api, id);
      expect(stepUp.authorizationUrl.searchParams.get('scope')).toBe('mcp:admin');
      expect(stepUp.callback.status).toBe(200);
      const secondToken = upstream.provider.issued.accessTokens.at(-1)!;
      const refused = await vi.waitFor(async () => {
        const v = await serverView(id);
        if (v.authState !== 'refused') throw new Error(`still ${v.authState}`);
        return v;
      }, { timeout: 60_000, interval: 50 });
      expect(refused).toMatchObject({ requiredScope: 'mcp:admin', connection: { state: 'error' }, tools: [] });
      expect(refused.authMessage).toMatch(/still refuses the scope "mcp:admin" after a login that consented to it.*check the account's permissions.*oauth\/start/);
      expect(refused.connection.message).toMatch(/after a login that consented to it/);
      // Each login's discovery met the 403 once: nothing retried it in the background, since only a login can change it.
      expect([refusedWith(firstToken), refusedWith(secondToken)]).toEqual([1, 1]);
    } finally {
      upstream.requiredScopes = [];
      upstream.provider.withheld.clear();
    }
  });

  it('never sends the token to another origin: a redirect is not followed with it', async () => {
    const seen: Array<string | undefined> = [];
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    upstream.redirectTo = `http://localhost:${(elsewhere.address() as AddressInfo).port}/mcp`;
    try {
      const result = (await agent.callTool({ name: tool, arguments: { message: 'redirected' } })) as any;
      expect(result.isError).toBe(true);
      expect(toolCalls().at(-1)).toMatchObject({ status: 307, authorization: expect.stringMatching(/^Bearer /) });
      expect(seen.filter((h) => h !== undefined)).toEqual([]);
    } finally {
      upstream.redirectTo = undefined;
      elsewhere.closeAllConnections();
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });

  it('a config change during a pending login clears the authorization, and the late callback restores nothing', async () => {
    const started = await api.post(`/api/mcp/servers/${serverId}/oauth/start`);
    const patched = await api.patch(`/api/mcp/servers/${serverId}`, { url: `${upstream.mcpUrl}?tenant=2` });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.server.authState).toBe('required');
    const callback = await openCallback(await approve(started.body.authorizationUrl));
    expect(callback.status).toBe(400);
    const view = await serverView(serverId);
    expect(view.authState).toBe('required');
    const result = (await agent.callTool({ name: tool, arguments: { message: 'x' } })) as any;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toMatch(/auth_required|tool_unavailable/);
  });

  it('clear deletes the saved login and refuses a pending attempt', async () => {
    const id = (await createOAuthServer('Cleared')).id;
    expect((await logIn(api, id)).callback.status).toBe(200);
    const started = await api.post(`/api/mcp/servers/${id}/oauth/start`);
    const cleared = await api.post(`/api/mcp/servers/${id}/oauth/clear`);
    expect(cleared.body.server.authState).toBe('required');
    expect((await openCallback(await approve(started.body.authorizationUrl))).status).toBe(400);
    expect((await serverView(id)).authState).toBe('required');
  });

  it('an sse server logs in and calls the same way', async () => {
    const created = await createOAuthServer('Protected SSE', { transport: 'sse', url: upstream.sseUrl });
    const before = await vi.waitFor(async () => {
      const v = await serverView(created.id);
      if (v.connection.state !== 'error') throw new Error('still discovering');
      return v;
    }, { timeout: 60_000, interval: 50 });
    expect(before.authState).toBe('required');
    expect(before.connection.message).toMatch(/oauth\/start/);
    expect((await logIn(api, created.id)).callback.status).toBe(200);
    const sseTool = await echoTool(created.id);
    const result = (await agent.callTool({ name: sseTool, arguments: { message: 'over sse' } })) as any;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('Echo: over sse');
  });

  it('a provider that denies the login: the page says so without echoing the provider\'s text', async () => {
    const id = (await createOAuthServer('Denied')).id;
    const started = await api.post(`/api/mcp/servers/${id}/oauth/start`);
    const state = new URL(started.body.authorizationUrl).searchParams.get('state')!;
    const page = await openCallback(`${gateway.url}/api/mcp/oauth/callback?state=${encodeURIComponent(state)}&error=access_denied&error_description=${encodeURIComponent('<b>provider-text-xyz</b>')}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain('did not grant access');
    expect(page.text).not.toContain('provider-text-xyz');
    expect((await serverView(id)).authState).toBe('required');
  });

  it('validates OAuth settings: a secret needs a client id, no manual Authorization header, https unless loopback', async () => {
    const refuse = async (body: Record<string, unknown>, field: RegExp) => {
      const response = await api.post('/api/mcp/servers', { name: `Bad ${Math.random()}`, transport: 'http', url: upstream.mcpUrl, ...body });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.message).toMatch(field);
    };
    await refuse({ auth: { mode: 'oauth', clientSecret: 's3cret-no-client' } }, /^auth\.clientSecret: .*clientId/);
    await refuse({ auth: { mode: 'oauth' }, headers: [{ key: 'Authorization', value: 'Bearer manual' }] }, /^headers\.Authorization: /);
    await refuse({ auth: { mode: 'oauth' }, url: 'http://mcp.example.org/mcp' }, /^url: .*https/);
    const ok = await api.post('/api/mcp/servers', { name: 'Headers kept', transport: 'http', url: upstream.mcpUrl, auth: { mode: 'oauth' }, headers: [{ key: 'X-Tenant', value: 'lab' }] });
    expect(ok.status).toBe(201);
  });

  it('a preregistered client: its secret is kept with null and never shown', async () => {
    const created = await createOAuthServer('Preregistered', { auth: { mode: 'oauth', clientId: 'scigate-pre', clientSecret: 'pre-registered-secret-77' } });
    expect(created.auth).toEqual({ mode: 'oauth', clientId: 'scigate-pre', clientSecret: null, clientSecretSet: true, clientMetadataUrl: null, scope: null });
    const renamed = await api.patch(`/api/mcp/servers/${created.id}`, { name: 'Preregistered 2', auth: { mode: 'oauth', clientId: 'scigate-pre', clientSecret: null } });
    expect(renamed.body.server.auth.clientSecretSet).toBe(true);
  });

  it('no token, code, verifier or secret appears in any API answer, the debug log or the data directory', async () => {
    const issued = upstream.provider.issued;
    const secrets = [...issued.accessTokens, ...issued.refreshTokens, ...issued.clientSecrets, ...issued.codes, 'pre-registered-secret-77'];
    expect(issued.accessTokens.length).toBeGreaterThan(3);
    answers.push((await api.get('/api/mcp/servers')).text);
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else files.push((await readFile(path)).toString('latin1'));
      }
    };
    await walk(gateway.dataDir);
    const haystacks = { answers: answers.join('\n'), log: log.lines.join('\n'), dataDir: files.join('\n') };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const secret of secrets) expect(text.includes(secret), `${where} contains a secret`).toBe(false);
    }
  });
});
