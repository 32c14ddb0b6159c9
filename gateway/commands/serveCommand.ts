/** `scigate serve`: MCP over streamable HTTP at /mcp and the admin API at /api, on one listener. */
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import type { LimitOverrides, ToolPrefix } from '../../catalog/index.js';
import { ensurePrivateDir, loadAdminToken } from '../../storage/index.js';
import {
  LOOPBACK_HOSTS, answerClientErrorsAsJson, createGatewayMetrics, createMcpHttpEdge, createMcpHttpRouter, metricsRoute, requestLog, requireAllowedHost, requireBearer, checkProviderUrls, sourceLimitsFlag, type FlagValues, type Logger,
  type ExtractionLimits, type RuntimeOptions, type SessionLimits, type Clock, systemClock,
} from '../index.js';
import { openSharedLiveState } from './redisWiring.js';
import { stopSignal } from './stopSignal.js';
import { openConfiguredStore, secretKeyFileFlag, storeFlag } from './storeWiring.js';
import { VERSION } from './version.js';
import { createLogger } from './logger.js';
import { adminAppFor, auditRetentionFlag, liveAdminToken, createRuntime, downloadMirrorsFlag, extractionLimitsFlag, killChildrenOnExit, listen, permissionFlags, replicaTimeoutFlag, scrubbedLog, takeOverProcessGroups, type Env } from './wiring.js';

/** Everything `scigate serve` needs; tests build one directly. */
export interface ServeConfig {
  /** Audit segments older than this are deleted (absent: kept). */
  auditRetentionDays?: number;
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL URL (`--store`); absent: the embedded store in the data directory. */
  store?: string;
  /** `--secret-key-file`: the secrets key every replica shares; absent: `<dataDir>/model-secrets.key`. */
  secretKeyFile?: string;
  isolateSources: boolean;
  toolPrefix: ToolPrefix;
  allowedHosts: string[];
  /** Per-source limit overrides (`--source-limits`). */
  sourceLimits?: LimitOverrides;
  /** Sources beyond the built-ins (the benchmark's local upstream). */
  extraSources?: RuntimeOptions['extraSources'];
  env: Env;
  log: Logger;
  fetch?: typeof globalThis.fetch;
  /** Longest wait for a human permission decision, in ms (`--approval-timeout`; default 15 minutes). */
  approvalTimeoutMs?: number;
  /** Also ask for permission inside clients that support elicitation (`--elicitation`; default on). */
  elicitation?: boolean;
  /** Time as a dependency (tests pass a fake clock); the system clock by default. */
  clock?: Clock;
  /** Idle timeout and cap of MCP sessions (`--session-idle-timeout`, `--max-sessions`; 30 min, 1000). */
  sessionLimits?: SessionLimits;
  /** Let custom http/sse servers use private address ranges (`--allow-private-urls`; default false). */
  allowPrivateUrls?: boolean;
  /** Loopback mirrors of public download origins (`--download-mirrors`; tests and offline runs). */
  downloadMirrors?: Record<string, string>;
  /** paper_extract_pdf's limits (`--extraction-limits`). */
  extractionLimits?: Partial<ExtractionLimits>;
  /** Share limiters, the result cache and events with other replicas through this Redis (`--redis`). */
  redisUrl?: string;
  /** Replicas on one PostgreSQL: how old a heartbeat may get before that replica counts as dead (`--replica-timeout`; 30 s). */
  replicaTimeoutMs?: number;
}

export interface RunningGateway {
  url: string;
  mcpUrl: string;
  token: string;
  tokenPath: string;
  stop(): Promise<void>;
}

/** Opens storage, starts the runtime and the HTTP listener (MCP at /mcp, admin at /api). */
export async function startGateway(serveConfig: ServeConfig): Promise<RunningGateway> {
  await ensurePrivateDir(serveConfig.dataDir);
  const tokenFile = await loadAdminToken(serveConfig.dataDir);
  const tokens = [tokenFile.token];
  const { secrets, log } = scrubbedLog(serveConfig, tokens);
  const config = { ...serveConfig, log };
  const metrics = await createGatewayMetrics();
  const shared = config.redisUrl ? await openSharedLiveState(config.redisUrl, { secrets, log, clock: config.clock ?? systemClock }) : undefined;
  const storage = await openConfiguredStore({
    store: config.store, dataDir: config.dataDir, log, secrets, onJournalFsync: (ms) => metrics.journalFsynced(ms),
    ...(config.auditRetentionDays !== undefined ? { auditRetentionDays: config.auditRetentionDays } : {}),
    ...(config.secretKeyFile !== undefined ? { secretKeyFile: config.secretKeyFile } : {}),
  });
  const processGroups = await takeOverProcessGroups(config.dataDir, log);
  // The SSRF policy refuses this gateway's own listener, known once it listens.
  let listening: { hosts: string[]; port: number } | undefined;
  const urlPolicy = { allowPrivate: config.allowPrivateUrls === true, ownListener: () => listening };
  const runtime = await createRuntime({ ...config, processGroups, ...(shared ? { shared } : {}) }, storage, { secrets, urlPolicy, metrics });
  // Over HTTP the admin API reads the catalog too: serve it discovered, as before.
  await runtime.registry.settled();
  const mcp = createMcpHttpRouter({ ...runtime.downstream, ...(config.sessionLimits ? { sessionLimits: config.sessionLimits } : {}) });
  metrics.collectSessions(() => mcp.sessionCount());
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(log));
  const loopback = LOOPBACK_HOSTS.includes(config.host);
  const hosts = loopback || config.allowedHosts.length > 0 ? [...LOOPBACK_HOSTS, ...config.allowedHosts] : undefined;
  if (hosts) {
    app.use('/mcp', requireAllowedHost(hosts, { jsonRpc: true }));
    app.use(requireAllowedHost(hosts));
  }
  const adminToken = liveAdminToken(tokenFile, tokens, log);
  app.use('/mcp', requireBearer(adminToken.current, { jsonRpc: true }), mcp.router);
  app.get('/metrics', requireBearer(adminToken.current), metricsRoute(metrics));
  app.use(await adminAppFor(runtime, storage, adminToken, config.log, shared));
  // MCP requests skip express (the same guards run in the edge); every other path is express's.
  const mcpEdge = createMcpHttpEdge({ mcp, token: adminToken.current, log, ...(hosts ? { allowedHosts: hosts } : {}) });
  const server = createServer((req, res) => void (mcpEdge(req, res) || app(req, res)));
  answerClientErrorsAsJson(server);
  await listen(server, config.host, config.port).catch(async (error: unknown) => {
    adminToken.stop();
    await runtime.close();
    await storage.close();
    await shared?.close();
    throw error;
  });
  const port = (server.address() as { port: number }).port;
  listening = { hosts: listenerHosts(config.host), port };
  const reachable = reachableHost(config.host);
  const url = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
  return {
    url,
    mcpUrl: `${url}/mcp`,
    get token() {
      return adminToken.current();
    },
    tokenPath: tokenFile.path,
    stop: async () => {
      adminToken.stop();
      await runtime.stopWork();
      await mcp.closeAll();
      server.closeAllConnections();
      server.close();
      await runtime.close();
      await storage.close();
      await shared?.close();
    },
  };
}

const EVERY_INTERFACE = ['0.0.0.0', '::'];

/** The addresses a listener bound to `host` answers on (every interface's for 0.0.0.0 / ::). */
function listenerHosts(host: string): string[] {
  if (!EVERY_INTERFACE.includes(host)) return [host];
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return [host, ...addresses];
}

/**
 * Where a client on this machine reaches a listener on `host`: for every interface (0.0.0.0, as in
 * the container image) that is loopback. "http://0.0.0.0:…" is no address to connect to, and its
 * Host header is one the DNS-rebinding guard refuses.
 */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  return host === '::' ? '::1' : host;
}

/** Runs `scigate serve` until SIGINT/SIGTERM; resolves with the exit code. */
export async function runServe(flags: FlagValues, env: Env): Promise<number> {
  checkProviderUrls(env);
  killChildrenOnExit();
  const gateway = await startGateway({
    host: String(flags.host),
    port: Number(flags.port),
    dataDir: resolve(String(flags.dataDir)),
    store: storeFlag(flags),
    isolateSources: flags.isolateSources === true,
    toolPrefix: flags.toolPrefix as ToolPrefix,
    allowedHosts: (flags.allowedHosts as string[] | undefined) ?? [],
    sourceLimits: sourceLimitsFlag(flags, env),
    ...permissionFlags(flags),
    sessionLimits: { idleTimeoutMs: Number(flags.sessionIdleTimeout ?? 1800) * 1000, maxSessions: Number(flags.maxSessions ?? 1000) },
    allowPrivateUrls: flags.allowPrivateUrls === true,
    downloadMirrors: downloadMirrorsFlag(flags),
    extractionLimits: extractionLimitsFlag(flags),
    ...(typeof flags.redis === 'string' ? { redisUrl: flags.redis } : {}),
    ...auditRetentionFlag(flags),
    ...secretKeyFileFlag(flags),
    ...replicaTimeoutFlag(flags),
    env,
    log: createLogger(String(flags.logLevel ?? 'info')),
  });
  process.stderr.write(
    `scigate ${VERSION} is running.\n  MCP endpoint: ${gateway.mcpUrl}\n  Admin API:    ${gateway.url}/api\n` +
      `  Admin page:   ${gateway.url}/  (paste the token there)\n` +
      `  Token file:   ${gateway.tokenPath}  (send it as "Authorization: Bearer <token>"; print it with "scigate token")\n` +
      (EVERY_INTERFACE.includes(String(flags.host))
        ? `  Listening on every interface (${String(flags.host)}): from another machine use this one's name or address, and allow it with --allowed-hosts.\n`
        : ''),
  );
  await stopSignal();
  await gateway.stop();
  return 0;
}
