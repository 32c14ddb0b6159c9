/**
 * The part of `scigate stdio` built after the session answers `initialize`: storage, the runtime
 * (registry, broker, custom servers), pino and, with --admin-port, the admin API.
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import type { ToolPrefix } from '../../catalog/index.js';
import { ensurePrivateDir, loadAdminToken } from '../../storage/index.js';
import { GatewayError, LOOPBACK_HOSTS, answerClientErrorsAsJson, systemClock, type SharedLiveState, downstreamHandlers, requireAllowedHost, checkProviderUrls, sourceLimitsFlag, type FlagValues, type GatewayRuntime, type Logger } from '../index.js';
import type { StdioRuntime } from '../front/index.js';
import { createLogger } from './logger.js';
import {
  adminAppFor, auditRetentionFlag, liveAdminToken, createRuntime, downloadMirrorsFlag, extractionLimitsFlag, killChildrenOnExit, listen, permissionFlags, replicaTimeoutFlag, scrubbedLog, takeOverProcessGroups,
  type Env, type Storage,
} from './wiring.js';
import { openSharedLiveState } from './redisWiring.js';
import { openConfiguredStore, secretKeyFileFlag, storeFlag } from './storeWiring.js';

/** The built stdio gateway: what the session needs, its logger, and how to shut it down. */
export interface StdioGateway {
  runtime: StdioRuntime;
  log: Logger;
  close(): Promise<void>;
}

/** Opens the data directory and storage, starts the runtime (and the admin API with --admin-port). */
export async function startStdioGateway(flags: FlagValues, env: Env): Promise<StdioGateway> {
  checkProviderUrls(env);
  killChildrenOnExit();
  const dataDir = resolve(String(flags.dataDir));
  const tokens: string[] = [];
  const { secrets, log } = scrubbedLog({ env, log: createLogger(String(flags.logLevel ?? 'info')) }, tokens);
  await ensurePrivateDir(dataDir);
  const store = storeFlag(flags);
  // With --redis, this stdio gateway shares limits, the result cache and events with the replicas.
  const shared = typeof flags.redis === 'string' ? await openSharedLiveState(flags.redis, { secrets, log, clock: systemClock }) : undefined;
  const storage = await openConfiguredStore({ store, dataDir, log, secrets, ...auditRetentionFlag(flags), ...secretKeyFileFlag(flags) }).catch((error: unknown) => {
    // PostgreSQL's errors already name the server; the embedded store's own message (e.g. "file is
    // not a database") does not say where, and the client should know.
    if (store && error instanceof GatewayError) throw error;
    throw new GatewayError('storage_unavailable', `cannot open the storage in ${dataDir}: ${(error as Error).message}`, { cause: error });
  }).catch(async (error: unknown) => {
    await shared?.close();
    throw error;
  });
  try {
    const processGroups = await takeOverProcessGroups(dataDir, log);
    const runtime = await createRuntime(
      { env, log, processGroups, isolateSources: flags.isolateSources === true, toolPrefix: flags.toolPrefix as ToolPrefix, sourceLimits: sourceLimitsFlag(flags, env), ...permissionFlags(flags), ...replicaTimeoutFlag(flags),
        dataDir, downloadMirrors: downloadMirrorsFlag(flags), extractionLimits: extractionLimitsFlag(flags),
        // Without --admin-port, a call whose client cannot be asked fails at once instead of waiting in vain.
        adminApproval: Number(flags.adminPort ?? 0) !== 0, ...(shared ? { shared, redisUrl: String(flags.redis) } : {}) },
      storage,
      { secrets, urlPolicy: { allowPrivate: flags.allowPrivateUrls === true } },
    );
    const admin = await serveStdioAdmin(flags, runtime, storage, log, tokens, shared);
    const { downstream } = runtime;
    return {
      log,
      runtime: { handlersFor: (id) => downstreamHandlers(downstream, id), sessions: downstream.sessions, clock: downstream.clock, log },
      close: async () => {
        admin?.close();
        await runtime.close();
        await storage.close();
        await shared?.close();
      },
    };
  } catch (error) {
    await storage.close().catch(() => {});
    await shared?.close().catch(() => {});
    throw error;
  }
}

/** With --admin-port, approvals and audit stay reachable over HTTP while MCP runs on stdio. */
async function serveStdioAdmin(flags: FlagValues, runtime: GatewayRuntime, storage: Storage, log: Logger, tokens: string[], shared?: SharedLiveState) {
  const port = Number(flags.adminPort ?? 0);
  if (port === 0) return undefined;
  const host = String(flags.host);
  const token = await loadAdminToken(resolve(String(flags.dataDir)));
  const { default: express } = await import('express');
  tokens.push(token.token);
  const adminToken = liveAdminToken(token, tokens, log);
  const app = express();
  app.disable('x-powered-by');
  app.use(requireAllowedHost([...LOOPBACK_HOSTS, ...((flags.allowedHosts as string[] | undefined) ?? [])]));
  app.use(await adminAppFor(runtime, storage, adminToken, log, shared));
  const server = createServer(app);
  answerClientErrorsAsJson(server);
  server.once('close', () => adminToken.stop());
  await listen(server, host, port, '--admin-port (SCIGATE_ADMIN_PORT)');
  process.stderr.write(`scigate admin API: http://${host}:${(server.address() as { port: number }).port}/api (token file: ${token.path})\n`);
  return server;
}
