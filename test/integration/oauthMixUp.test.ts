import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { approve, logIn, openCallback } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/**
 * Two OAuth servers behind one gateway callback URL. "honest" signs its authorization responses
 * with `iss` (RFC 9207, announced in its metadata); "mixer" is the provider of another custom
 * server that, instead of asking its own user, sends the admin's browser on to the honest
 * provider with its own login's state and PKCE challenge, hoping to receive the honest code.
 */
let honest: ProtectedMcp;
let mixer: ProtectedMcp;
let gateway: TestGateway;
let api: AdminApi;
beforeAll(async () => {
  [honest, mixer] = await Promise.all([startProtectedMcp(), startProtectedMcp()]);
  honest.asHook = signedResponses(honest.issuerUrl);
  gateway = await startTestGateway();
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([honest?.close(), mixer?.close()]);
});

/** Announces `iss` in the authorization server metadata and adds it to every authorization response. */
function signedResponses(issuer: string): RequestHandler {
  return (req, res, next) => {
    if (req.path === '/.well-known/oauth-authorization-server') {
      const json = res.json.bind(res);
      res.json = (body: Record<string, unknown>) => json({ ...body, authorization_response_iss_parameter_supported: true });
    }
    if (req.path === '/authorize') {
      const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
      res.redirect = ((status: number, url: string) => {
        const target = new URL(url);
        target.searchParams.set('iss', issuer);
        redirect(status, target.href);
      }) as typeof res.redirect;
    }
    next();
  };
}

async function createServer(name: string, upstream: ProtectedMcp): Promise<string> {
  const created = await api.post('/api/mcp/servers', { name, transport: 'http', url: upstream.mcpUrl, auth: { mode: 'oauth' } });
  expect(created.status, created.text).toBe(201);
  return created.body.server.id;
}

describe('authorization responses and the server they belong to (RFC 9207)', () => {
  let honestId: string;

  it('a provider that signs its answers with iss logs in as before', async () => {
    honestId = await createServer('Honest', honest);
    expect((await logIn(api, honestId)).callback).toMatchObject({ status: 200, text: expect.stringContaining('now logged in') });
  });

  it("a code the honest provider issued, brought back under another server's login, never reaches that server's token endpoint", async () => {
    const mixerId = await createServer('Mixer', mixer);
    const started = new URL((await api.post(`/api/mcp/servers/${mixerId}/oauth/start`)).body.authorizationUrl);
    // The mixer's authorization endpoint forwards the browser to the honest one, as the gateway's client there.
    const forwarded = new URL(`${honest.issuerUrl}authorize`);
    for (const name of ['response_type', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method']) forwarded.searchParams.set(name, started.searchParams.get(name)!);
    forwarded.searchParams.set('client_id', honest.provider.authorizations.at(-1)!.clientId);
    forwarded.searchParams.set('resource', honest.mcpUrl);
    const presented = mixer.provider.codesPresented;
    const tokenRequests = mixer.asRequests.filter((r) => r.path === '/token').length;
    const callback = await openCallback(await approve(forwarded.href));
    expect(callback.status).toBe(502);
    expect(callback.text).toContain('another authorization server');
    expect(callback.text).not.toContain(honest.provider.issued.codes.at(-1)!);
    expect(mixer.asRequests.filter((r) => r.path === '/token').length).toBe(tokenRequests);
    expect(mixer.provider.codesPresented).toBe(presented);
    expect((await api.get(`/api/mcp/servers/${mixerId}`)).body.server).toMatchObject({ authState: 'required', authMessage: expect.stringMatching(/authorization server; log in/) });
    expect((await api.get(`/api/mcp/servers/${honestId}`)).body.server.authState).toBe('authorized');
  });

  it('an answer without the iss the provider announced is refused before its code is used', async () => {
    const id = await createServer('Honest again', honest);
    const started = await api.post(`/api/mcp/servers/${id}/oauth/start`);
    const callbackUrl = new URL(await approve(started.body.authorizationUrl));
    callbackUrl.searchParams.delete('iss');
    const exchanges = honest.provider.codesPresented;
    const callback = await openCallback(callbackUrl.href);
    expect(callback.status).toBe(502);
    expect(callback.text).toContain('without the iss its metadata promises');
    expect(honest.provider.codesPresented).toBe(exchanges);
  });
});
