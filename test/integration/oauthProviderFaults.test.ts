import type { RequestHandler } from 'express';
import { createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CustomUrlPolicy } from '../../catalog/index.js';
import { silentLogger, type OAuthLoginStore, type StoredOAuthLogin } from '../../gateway/core/index.js';
import { OAuthManager, oauthSignature, upstreamAuthOf } from '../../gateway/upstream/index.js';
import { FakeClock } from '../fixtures/brokerDoubles.js';
import { approve } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway } from '../fixtures/testGateway.js';

/** A misbehaving authorization server (loopback, via the fixture's hook) and what the gateway makes of it. */
let upstream: ProtectedMcp;
/** Requests left hanging by a hook, answered at the end so the servers can close. */
const held: Array<() => void> = [];
beforeAll(async () => {
  upstream = await startProtectedMcp({ accessTtlSeconds: 120 });
});
afterEach(() => {
  upstream.asHook = undefined;
  held.splice(0).forEach((release) => release());
});
afterAll(async () => {
  await upstream?.close();
});

const TIMEOUT_MS = 300;
const REDIRECT = 'http://127.0.0.1:9/api/mcp/oauth/callback';

function memoryStore(): OAuthLoginStore & { saved: Map<string, StoredOAuthLogin> } {
  const saved = new Map<string, StoredOAuthLogin>();
  return { saved, load: async () => Object.fromEntries(saved), save: async (id, login) => void (login ? saved.set(id, login) : saved.delete(id)) };
}

function manager(clock = new FakeClock(), fetchFn?: typeof fetch, urlPolicy?: CustomUrlPolicy) {
  const config = { url: upstream.mcpUrl, transport: 'http' as const, auth: { mode: 'oauth' as const } };
  return new OAuthManager({
    serverId: 'custom-00000000000f', ...config, settings: config.auth, signature: oauthSignature(config), store: memoryStore(), clock, log: silentLogger,
    providerTimeoutMs: TIMEOUT_MS, ...(fetchFn ? { fetch: fetchFn } : {}), ...(urlPolicy ? { urlPolicy } : {}),
  });
}

/** Answers `path` on the authorization server with `handler` (for POSTs, or GETs when `method` says so); the rest passes. */
function onPath(path: string, handler: RequestHandler, method = 'POST'): RequestHandler {
  return (req, res, next) => (req.path === path && req.method === method ? handler(req, res, next) : next());
}

/** Never answers (until the test ends). */
const hang: RequestHandler = (_req, res) => {
  held.push(() => res.destroy());
};

/** Sends the headers, then one byte every 50 ms, never finishing. */
const trickle: RequestHandler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 50);
  held.push(() => {
    clearInterval(timer);
    res.destroy();
  });
};

async function startAndApprove(oauth: OAuthManager) {
  const { authorizationUrl } = await oauth.begin(REDIRECT);
  const params = new URL(await approve(authorizationUrl)).searchParams;
  return { state: params.get('state')!, code: params.get('code')! };
}

describe('a provider that does not answer in time', () => {
  it.each([['never answers', hang], ['trickles its answer', trickle]])('a token endpoint that %s fails the code exchange within the bound and releases "authorizing"', async (_name, handler) => {
    const oauth = manager();
    const { state, code } = await startAndApprove(oauth);
    upstream.asHook = onPath('/token', handler);
    const started = Date.now();
    await expect(oauth.finish(state, { code })).rejects.toMatchObject({
      code: 'upstream_timeout',
      message: expect.stringMatching(/^The authorization server at http:\/\/127\.0\.0\.1:\d+ did not answer within 300 ms; try again, or check the server\.$/),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(oauth.status.state).toBe('required');
  });

  it('a refresh that timed out does not hold later callers: the next one refreshes once the provider recovers', async () => {
    const clock = new FakeClock();
    const oauth = manager(clock);
    const { state, code } = await startAndApprove(oauth);
    await oauth.finish(state, { code });
    clock.advance(120_000);
    upstream.asHook = onPath('/token', hang);
    await expect(oauth.accessToken()).rejects.toMatchObject({ code: 'upstream_timeout', message: expect.stringMatching(/did not answer within/) });
    upstream.asHook = undefined;
    expect(await oauth.accessToken()).toBe(upstream.provider.issued.accessTokens.at(-1));
    expect(oauth.status.state).toBe('authorized');
  });
});

/** Records every URL the gateway asks for; a non-loopback one is failed at once (tests stay on loopback). */
function recordingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (async (url: string | URL | Request, init?: RequestInit) => {
      urls.push(String(url));
      if (new URL(String(url)).hostname !== '127.0.0.1') throw new TypeError('fetch failed (the test allows loopback only)');
      return fetch(url, init);
    }) as typeof fetch,
  };
}

/** Serves the authorization server's real metadata with `change` applied. */
function changedMetadata(change: (metadata: Record<string, unknown>) => void): RequestHandler {
  return onPath('/.well-known/oauth-authorization-server', (_req, res) => {
    const metadata = { ...createOAuthMetadata({ provider: upstream.provider, issuerUrl: new URL(upstream.issuerUrl), scopesSupported: ['mcp:read', 'mcp:write'] }) } as Record<string, unknown>;
    change(metadata);
    res.json(metadata);
  }, 'GET');
}

describe('provider endpoints must be https (or loopback http)', () => {
  it('refuses a token endpoint on plain http to another host before the login starts, naming it', async () => {
    upstream.asHook = changedMetadata((metadata) => {
      metadata.token_endpoint = 'http://192.0.2.2:7604/token';
    });
    const recorder = recordingFetch();
    const oauth = manager(new FakeClock(), recorder.fetch);
    await expect(oauth.begin(REDIRECT)).rejects.toMatchObject({ message: expect.stringMatching(/the token endpoint http:\/\/192\.0\.2\.2:7604\/token: it is not https:\/\//) });
    expect(recorder.urls.filter((url) => url.includes('192.0.2.2'))).toEqual([]);
    expect(oauth.status.state).toBe('required');
  });

  it("applies the gateway's URL policy for custom servers: a private address needs --allow-private-urls", async () => {
    upstream.asHook = changedMetadata((metadata) => {
      metadata.token_endpoint = 'https://10.1.2.3/token';
    });
    const recorder = recordingFetch();
    const oauth = manager(new FakeClock(), recorder.fetch, { allowPrivate: false });
    await expect(oauth.begin(REDIRECT)).rejects.toMatchObject({ message: expect.stringContaining('points at the private address 10.1.2.3; start the gateway with --allow-private-urls') });
    expect(recorder.urls.filter((url) => url.includes('10.1.2.3'))).toEqual([]);
  });

  it('refuses an authorization server the resource metadata names on plain http to another host', async () => {
    const express = (await import('express')).default;
    const app = express();
    const { createServer } = await import('node:http');
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    app.post('/mcp', (_req, res) => void res.status(401).set('www-authenticate', `Bearer resource_metadata="${origin}/prm"`).end());
    app.get('/prm', (_req, res) => void res.json({ resource: `${origin}/mcp`, authorization_servers: ['http://192.0.2.2:7604/'] }));
    try {
      const recorder = recordingFetch();
      const config = { url: `${origin}/mcp`, transport: 'http' as const, auth: { mode: 'oauth' as const } };
      const oauth = new OAuthManager({
        serverId: 'custom-00000000000e', ...config, settings: config.auth, signature: oauthSignature(config), store: memoryStore(), clock: new FakeClock(), log: silentLogger,
        providerTimeoutMs: TIMEOUT_MS, fetch: recorder.fetch,
      });
      await expect(oauth.begin(REDIRECT)).rejects.toMatchObject({ message: expect.stringMatching(/http:\/\/192\.0\.2\.2:7604\/.*: it is not https:\/\//) });
      expect(recorder.urls.filter((url) => url.includes('192.0.2.2'))).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the status after a start that failed', () => {
  it('a second start that fails leaves "required", not "authorizing" with no login pending, and cancel keeps it', async () => {
    const oauth = manager();
    await oauth.begin(REDIRECT);
    expect(oauth.status.state).toBe('authorizing');
    upstream.asHook = onPath('/.well-known/oauth-authorization-server', (_req, res) => void res.status(500).end(), 'GET');
    await expect(oauth.begin(REDIRECT)).rejects.toMatchObject({ message: expect.stringMatching(/could not start the login/) });
    expect(oauth.status).toMatchObject({ state: 'required', message: expect.stringMatching(/could not start; log in with/) });
    oauth.cancel();
    expect(oauth.status.state).toBe('required');
  });
});

describe('PKCE', () => {
  it('refuses an authorization server whose metadata does not list code_challenge_methods_supported, before registering', async () => {
    upstream.asHook = changedMetadata((metadata) => {
      delete metadata.code_challenge_methods_supported;
    });
    const registrations = upstream.provider.registrations;
    const oauth = manager();
    await expect(oauth.begin(REDIRECT)).rejects.toMatchObject({ message: expect.stringMatching(/^The gateway refused to log in with the authorization server at http:\/\/127\.0\.0\.1:\d+: its metadata does not list S256 in code_challenge_methods_supported/) });
    expect(upstream.provider.registrations).toBe(registrations);
    expect(oauth.status.state).toBe('required');
  });
});

describe('the size of provider documents', () => {
  it.each([['declares its length', true], ['streams without a length', false]])('refuses metadata larger than the cap when it %s, naming the document', async (_name, declared) => {
    const metadata = { ...createOAuthMetadata({ provider: upstream.provider, issuerUrl: new URL(upstream.issuerUrl), scopesSupported: ['mcp:read'] }), padding: 'x'.repeat(5 * 1024 * 1024) };
    const body = Buffer.from(JSON.stringify(metadata));
    upstream.asHook = onPath('/.well-known/oauth-authorization-server', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(body.length) } : {}) });
      for (let at = 0; at < body.length; at += 64 * 1024) res.write(body.subarray(at, at + 64 * 1024));
      res.end();
    }, 'GET');
    const oauth = manager();
    await expect(oauth.begin(REDIRECT)).rejects.toMatchObject({
      message: expect.stringMatching(/answer from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server is larger than 4 MiB/),
    });
    expect(oauth.status.state).toBe('required');
  });
});

describe('an agent call during a pending login', () => {
  it('keeps "authorizing" (the call is still refused with auth_required)', async () => {
    const oauth = manager();
    await oauth.begin(REDIRECT);
    const agentFetch = upstreamAuthOf(oauth).wrapFetch((url, init) => fetch(url, init));
    const answer = await agentFetch(upstream.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(answer.status).toBe(401);
    expect(oauth.lastRefusal?.code).toBe('auth_required');
    expect(oauth.status).toMatchObject({ state: 'authorizing', message: 'waiting for the login in the browser' });
  });
});

describe('messages for a provider that answers junk name the step and never quote the provider', () => {
  const PROVIDER_TEXT = 'ok SECRET-PROVIDER-TEXT';
  const junk = (status: number, body: unknown, type = 'application/json'): RequestHandler => (_req, res) => {
    res.status(status).type(type).send(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const notQuoting = (message: string) => {
    expect(message).not.toMatch(/SECRET-PROVIDER-TEXT|<html>|Raw body|Unexpected token|invalid_type|expected/i);
    return message;
  };

  it.each([
    ['an HTML registration answer', junk(201, `<html>${PROVIDER_TEXT}</html>`, 'html'), /could not start the login: the client registration failed: the authorization server at http:\/\/127\.0\.0\.1:\d+ answered with something that is not JSON\./],
    ['a registration document of the wrong shape', junk(201, { client_id: 5, note: PROVIDER_TEXT }), /the client registration failed: .* answered with a document that is not valid \(.*client_id missing or wrong\)\./],
    ['a registration refused for its callback', junk(400, { error: 'invalid_redirect_uri', error_description: PROVIDER_TEXT }),
      /the client registration was refused \(OAuth error invalid_redirect_uri\): the provider does not accept the gateway's callback URL http:\/\/127\.0\.0\.1:9\/api\/mcp\/oauth\/callback, and must be configured to allow it\./],
    ['a registration answered 500 with HTML', junk(500, `<html>${PROVIDER_TEXT}</html>`, 'html'), /the client registration failed: the authorization server at http:\/\/127\.0\.0\.1:\d+ answered HTTP 500 without an OAuth error\./],
  ])('%s', async (_name, handler, expected) => {
    upstream.asHook = onPath('/register', handler);
    const oauth = manager();
    const failure = await oauth.begin(REDIRECT).then(() => undefined, (error: Error) => error);
    expect(notQuoting(failure!.message)).toMatch(expected);
  });

  it.each([
    ['HTML with HTTP 500', junk(500, `<html>${PROVIDER_TEXT}</html>`, 'html'), /could not finish the login: the token exchange failed: the authorization server at http:\/\/127\.0\.0\.1:\d+ answered HTTP 500 without an OAuth error\./],
    ['an OAuth error', junk(503, { error: 'temporarily_unavailable', error_description: PROVIDER_TEXT }), /the token exchange was refused by the authorization server at http:\/\/127\.0\.0\.1:\d+ \(OAuth error temporarily_unavailable\)\./],
    ['HTML with HTTP 200', junk(200, `<html>${PROVIDER_TEXT}</html>`, 'html'), /the token exchange failed: .* answered with something that is not JSON\./],
  ])('a code exchange answered with %s', async (_name, handler, expected) => {
    const oauth = manager();
    const { state, code } = await startAndApprove(oauth);
    upstream.asHook = onPath('/token', handler);
    const failure = await oauth.finish(state, { code }).then(() => undefined, (error: Error) => error);
    expect(notQuoting(failure!.message)).toMatch(expected);
  });

  it('a refresh answered with HTML says the token refresh failed, and how', async () => {
    const clock = new FakeClock();
    const oauth = manager(clock);
    const { state, code } = await startAndApprove(oauth);
    await oauth.finish(state, { code });
    clock.advance(120_000);
    upstream.asHook = onPath('/token', junk(502, `<html>${PROVIDER_TEXT}</html>`, 'html'));
    const failure = await oauth.accessToken().then(() => undefined, (error: Error) => error);
    expect(notQuoting(failure!.message)).toMatch(/could not be renewed now \(the token refresh failed: the authorization server at http:\/\/127\.0\.0\.1:\d+ answered HTTP 502 without an OAuth error\); try again shortly\./);
  });
});

describe('a dynamic registration the provider no longer knows', () => {
  it('a start that reused it and never came back is followed by one that registers anew', async () => {
    const oauth = manager();
    const first = await startAndApprove(oauth);
    await oauth.finish(first.state, { code: first.code });
    upstream.provider.forgetClients();
    const registrations = upstream.provider.registrations;
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    expect(oauth.status.message).toMatch(/Cancel and log in again, which registers anew/);
    // The provider's page refuses the client it no longer knows: the browser never comes back.
    await expect(approve(authorizationUrl)).rejects.toThrow(/did not redirect back/);
    oauth.cancel();
    // A start that registered anew but was abandoned too does not bring the dead registration back.
    await oauth.begin(REDIRECT);
    expect(upstream.provider.registrations).toBe(registrations + 1);
    oauth.cancel();
    const again = await startAndApprove(oauth);
    expect(upstream.provider.registrations).toBe(registrations + 2);
    await oauth.finish(again.state, { code: again.code });
    expect(oauth.status.state).toBe('authorized');
  });
});

describe('the running gateway', () => {
  it('checks the endpoints a provider names against its own URL policy for custom servers', async () => {
    const gateway = await startTestGateway();
    try {
      const api = adminApi(gateway);
      const created = await api.post('/api/mcp/servers', { name: 'private provider', transport: 'http', url: upstream.mcpUrl, auth: { mode: 'oauth' } });
      expect(created.status).toBe(201);
      upstream.asHook = changedMetadata((metadata) => {
        metadata.token_endpoint = 'https://10.1.2.3/token';
      });
      const started = await api.post(`/api/mcp/servers/${created.body.server.id}/oauth/start`);
      expect(started.body.error?.message).toContain('points at the private address 10.1.2.3; start the gateway with --allow-private-urls');
    } finally {
      await gateway.dispose();
    }
  });

  it('while the callback exchanges the code, the server shows "authorizing", not a login that did not finish', async () => {
    const gateway = await startTestGateway();
    let release: (() => void) | undefined;
    let finishing: Promise<Response> | undefined;
    try {
      const api = adminApi(gateway);
      const created = await api.post('/api/mcp/servers', { name: 'slow token endpoint', transport: 'http', url: upstream.mcpUrl, auth: { mode: 'oauth' } });
      const id = created.body.server.id;
      const callbackUrl = await approve((await api.post(`/api/mcp/servers/${id}/oauth/start`)).body.authorizationUrl);
      upstream.asHook = onPath('/token', (_req, _res, next) => void (release = next));
      finishing = fetch(callbackUrl);
      await vi.waitFor(() => expect(release).toBeDefined());
      expect((await api.get(`/api/mcp/servers/${id}`)).body.server).toMatchObject({ authState: 'authorizing', authMessage: expect.stringMatching(/^waiting for the login/) });
      release!();
      expect((await finishing).status).toBe(200);
      expect((await api.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');
    } finally {
      release?.();
      await finishing?.catch(() => undefined);
      await gateway.dispose();
    }
  });
});
