import { escapeUTF8 } from 'entities';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { oauthStartSchema } from '../catalog/index.js';
import { GatewayError, OAUTH_CALLBACK_PATH, parseInput, type CustomServers, type Logger, type SecretScrubber } from '../gateway/index.js';
import { scrubbedJson } from './scrubbedJson.js';

export interface OAuthRoutesDeps {
  customServers: CustomServers;
  secrets: SecretScrubber;
  log: Logger;
}

/**
 * OAuth logins of custom servers (GATEWAY.md §10), behind the admin token: start (answers the
 * provider's authorization URL; discovery, state and PKCE stay here), cancel and clear.
 */
export function oauthRoutes(deps: OAuthRoutesDeps): Router {
  const router = Router();
  const servers = deps.customServers;
  router.use('/mcp/servers/:id/oauth', scrubbedJson(deps.secrets));
  router.post('/mcp/servers/:id/oauth/start', async (req, res) => {
    const request = parseInput(oauthStartSchema, req.body ?? {});
    const redirectUri = callbackUrlFor(req, request.redirectUri);
    res.json(await servers.oauthStart(req.params.id as string, redirectUri));
  });
  router.post('/mcp/servers/:id/oauth/cancel', (req, res) => {
    res.json({ server: servers.oauthCancel(req.params.id as string) });
  });
  router.post('/mcp/servers/:id/oauth/clear', async (req, res) => {
    res.json({ server: await servers.oauthClear(req.params.id as string) });
  });
  return router;
}

/**
 * `GET /api/mcp/oauth/callback`, mounted without the bearer token: the one-use state, its expiry
 * and PKCE authenticate the request. The page says what happened and what to do next; it never
 * shows the code, a token or the provider's own error text, and keeps the URL out of referrers.
 */
export function oauthCallbackRoute(deps: OAuthRoutesDeps): RequestHandler {
  return async (req, res) => {
    const query = {
      ...(typeof req.query.state === 'string' ? { state: req.query.state } : {}),
      ...(typeof req.query.code === 'string' ? { code: req.query.code } : {}),
      ...(typeof req.query.error === 'string' ? { error: req.query.error } : {}),
      ...(typeof req.query.iss === 'string' ? { iss: req.query.iss } : {}),
    };
    try {
      const { name } = await deps.customServers.oauthCallback(query);
      sendPage(res, 200, 'Login complete', `scigate is now logged in to ${name}. You can close this window.`);
    } catch (thrown) {
      const error = GatewayError.from(thrown);
      deps.log.warn({ code: error.code }, 'OAuth callback refused');
      const status = error.code === 'not_found' ? 400 : error.code === 'conflict' ? 409 : error.code === 'auth_required' ? 403 : 502;
      sendPage(res, status, 'Login not completed', deps.secrets.scrub(error.message));
    }
  };
}

/** This gateway's callback on the origin the admin uses; a given URL must be exactly that. */
function callbackUrlFor(req: Request, given: string | undefined): string {
  // The Host header already passed the --allowed-hosts check in front of every route.
  const expected = `${req.protocol}://${req.get('host') ?? ''}${OAUTH_CALLBACK_PATH}`;
  if (given === undefined || given === expected) return expected;
  throw new GatewayError(
    'invalid_input',
    `redirectUri: must be this gateway's callback on the origin you use, ${expected}; leave it out to use that.`,
    { details: { field: 'redirectUri' } },
  );
}

function sendPage(res: Response, status: number, title: string, message: string): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeUTF8(title)} — scigate</title>` +
        `<style>body{font:16px system-ui,sans-serif;margin:3rem auto;max-width:36rem;padding:0 1rem}</style></head>` +
        `<body><h1>${escapeUTF8(title)}</h1><p>${escapeUTF8(message)}</p></body></html>`,
    );
}
