import { Router, type RequestHandler } from 'express';
import { acceptToolsSchema, createCustomServerSchema, importRepeats, importServersSchema, inspectToolSchema, patchCustomServerSchema } from '../catalog/index.js';
import { GatewayError, parseInput, type CustomServers, type SecretScrubber, type WithRawBody } from '../gateway/index.js';
import { onlyMethods } from './httpErrors.js';
import { scrubbedJson } from './scrubbedJson.js';

export interface CustomServerRoutesDeps {
  customServers: CustomServers;
  /** Connection, discovery and Inspector answers quote upstreams: every answer is scrubbed. */
  secrets: SecretScrubber;
}

/**
 * Custom MCP servers (GATEWAY.md §10): list, create, update, delete, import, connection test,
 * tool acceptance and the Inspector. Env/header values never appear in a response: the views leave
 * them out, and what upstreams said is scrubbed.
 */
export function customServerRoutes(deps: CustomServerRoutesDeps): Router {
  const router = Router();
  const servers = deps.customServers;
  router.use('/mcp/servers', scrubbedJson(deps.secrets, restoreServerStructure));

  router.get('/mcp/servers', async (_req, res) => {
    // Replicas on one store: what another replica saved is live here before the list answers.
    await servers.synced();
    res.json({ servers: servers.list() });
  });
  router.post('/mcp/servers', async (req, res) => {
    if (isImportDocument(req.body)) {
      throw new GatewayError('invalid_input', 'This is an {"mcpServers": {…}} document: POST it to /api/mcp/servers/import to add its servers.', {
        details: { field: 'mcpServers' },
      });
    }
    const server = await servers.create(parseInput(createCustomServerSchema, req.body ?? {}));
    res.status(201).json({ server });
  });
  router.post('/mcp/servers/import', async (req, res) => {
    const imported = await servers.importServers(parseInput(importServersSchema, req.body ?? {}));
    const warnings = importRepeats((req as WithRawBody).rawBody?.toString('utf8') ?? '');
    res.status(201).json({ servers: imported, warnings });
  });
  router.all('/mcp/servers/import', onlyMethods('POST'));
  router.get('/mcp/servers/:id', (req, res) => {
    res.json({ server: servers.get(req.params.id) });
  });
  router.patch('/mcp/servers/:id', async (req, res) => {
    res.json({ server: await servers.update(req.params.id, parseInput(patchCustomServerSchema, req.body ?? {})) });
  });
  router.delete('/mcp/servers/:id', async (req, res) => {
    await servers.remove(req.params.id);
    res.json({ deleted: req.params.id });
  });
  // HTTP 200 whether or not the checks pass: `ok` in the body tells.
  router.post('/mcp/servers/:id/test', async (req, res) => {
    res.json(await servers.test(req.params.id));
  });
  router.post('/mcp/servers/:id/accept-tools', async (req, res) => {
    res.json({ server: await servers.acceptTools(req.params.id, parseInput(acceptToolsSchema, req.body ?? {})) });
  });
  router.post('/mcp/servers/:id/inspect', inspectHandler(servers));
  return router;
}

/** HTTP 200 even when the tool call fails; a client that disconnects cancels the call. */
function inspectHandler(servers: CustomServers): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const request = parseInput(inspectToolSchema, req.body ?? {});
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new GatewayError('cancelled', 'The Inspector request was cancelled.'));
    });
    const result = await servers.inspect(req.params.id, request, controller.signal);
    if (!res.destroyed) res.json(result);
  };
}

/** A client's whole configuration file sent to the route for one server (a common slip). */
function isImportDocument(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, 'mcpServers');
}

/**
 * The fields of a server view that are the gateway's own words and numbers (its id, transport,
 * states, limits, times), as they were before scrubbing: the admin page reads `connection.state`.
 */
function restoreServerStructure(scrubbed: { server?: any; servers?: any[] }, original: { server?: any; servers?: any[] }): void {
  const restore = (view: any, before: any) => {
    if (!view || !before) return;
    for (const field of ['id', 'transport', 'enabled', 'timeoutSeconds', 'limits', 'authState', 'createdAt', 'updatedAt'] as const) view[field] = before[field];
    if (view.connection && before.connection) view.connection.state = before.connection.state;
    if (view.discovery && before.discovery) view.discovery = { ...view.discovery, state: before.discovery.state, discoveredAt: before.discovery.discoveredAt };
  };
  restore(scrubbed.server, original.server);
  scrubbed.servers?.forEach((view, i) => restore(view, original.servers?.[i]));
}
