import { Router } from 'express';
import { jsonBody, requireBearer, type Logger } from '../gateway/index.js';
import { errorMiddleware, unknownRoute } from './httpErrors.js';
import { sessionRoutes, type SessionRoutesDeps } from './sessionRoutes.js';
import type { Clock, CurrentToken, EventHub, PermissionGate } from '../gateway/index.js';
import { eventRoutes } from './eventRoutes.js';
import { permissionRoutes } from './permissionRoutes.js';
import { catalogRoutes, type CatalogRoutesDeps } from './catalogRoutes.js';
import { customServerRoutes, type CustomServerRoutesDeps } from './customServerRoutes.js';
import { settingsRoutes, type SettingsRoutesDeps } from './settingsRoutes.js';
import { pageRoutes } from './pageRoutes.js';
import { artifactRoutes, type ArtifactRoutesDeps } from './artifactRoutes.js';
import { extractionRoutes, type ExtractionRoutesDeps } from './extractionRoutes.js';
import { uploadRoutes, type UploadRoutesDeps } from './uploadRoutes.js';
import { oauthCallbackRoute, oauthRoutes } from './oauthRoutes.js';
import { OAUTH_CALLBACK_PATH } from '../gateway/index.js';

export interface AdminDeps extends SessionRoutesDeps, CatalogRoutesDeps {
  /** The admin token in force (it follows the token file while the gateway runs). */
  token: CurrentToken;
  /** Tells `listener` each time the token in force changes (returns its removal): open event streams end then. */
  tokenChanges?: (listener: () => void) => () => void;
  log: Logger;
  /** Each dependency /readyz checks (the store, Redis when configured): undefined when it answers, else why not. */
  readiness: () => Promise<Record<string, string | undefined>>;
  /** Human authorization routes. */
  permissionGate: PermissionGate;
  /** Live updates at /api/events; the clock paces its keep-alive lines. */
  events: EventHub;
  clock: Clock;
  customServers: CustomServerRoutesDeps['customServers'];
  selection: SettingsRoutesDeps['selection'];
  /** Artifact plans, jobs and uploads: mounted when the runtime offers artifact_download. */
  artifacts?: ArtifactRoutesDeps['artifacts'];
  artifactDownloads?: ArtifactRoutesDeps['artifactDownloads'];
  workspace?: UploadRoutesDeps['workspace'];
  /** Extraction jobs: mounted when the runtime offers paper_extract_pdf. */
  paperExtractions?: ExtractionRoutesDeps['paperExtractions'];
}

/** The admin HTTP surface: /healthz (no auth), the web page at /, /readyz and /api/* behind the bearer token. */
export function createAdminApp(deps: AdminDeps): Router {
  const app = Router();
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  const auth = requireBearer(deps.token);
  app.get('/readyz', auth, async (_req, res) => {
    const checks = Object.entries(await deps.readiness());
    const failing = checks.filter(([, reason]) => reason !== undefined).map(([name, reason]) => `${name}: ${reason}`);
    const body = { ok: failing.length === 0, checks: Object.fromEntries(checks.map(([name, reason]) => [name, reason ?? 'ok'])) };
    res.status(failing.length > 0 ? 503 : 200).json(failing.length > 0 ? { ...body, reason: failing.join('; ') } : body);
  });
  // The provider sends the browser here without the admin token: the one-use state authenticates it.
  app.get(OAUTH_CALLBACK_PATH, oauthCallbackRoute(deps));
  const api = Router();
  api.use(auth);
  // Uploads stream the raw body into the workspace: mounted before the JSON body reader refuses it.
  if (deps.workspace) api.use(uploadRoutes({ ...deps, workspace: deps.workspace }));
  // One body reader for the whole API, so every route refuses a body that is not JSON (415) the
  // same way; a Session patch or a decision is small, server configs and imports can be larger.
  api.use(['/sessions', '/permission-requests'], jsonBody({ maxBytes: 64 * 1024 }));
  api.use(jsonBody({ maxBytes: 1024 * 1024 }));
  api.use(sessionRoutes(deps));
  api.use(settingsRoutes(deps));
  api.use(permissionRoutes(deps));
  api.use(eventRoutes(deps));
  api.use(catalogRoutes(deps));
  api.use(customServerRoutes(deps));
  if (deps.artifacts && deps.artifactDownloads) api.use(artifactRoutes({ ...deps, artifacts: deps.artifacts, artifactDownloads: deps.artifactDownloads }));
  if (deps.paperExtractions) api.use(extractionRoutes({ ...deps, paperExtractions: deps.paperExtractions }));
  api.use(oauthRoutes(deps));
  api.use(unknownRoute(api));
  app.use('/api', api);
  app.use(pageRoutes());
  app.use(unknownRoute(app));
  app.use(errorMiddleware(deps.log));
  return app;
}
