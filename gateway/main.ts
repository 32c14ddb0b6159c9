#!/usr/bin/env node
/**
 * Composition root: environment → config, open storage, wire the runtime, listen.
 * The one file that reads process.env and imports the concrete storage/ and admin/.
 */
import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import { realpathSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CustomUrlPolicy, LimitOverrides, ToolPrefix } from '../catalog/index.js';
import { findBuiltinSource } from '../sources/index.js';
import { ProcessGroupFiles, ensurePrivateDir, loadAdminToken, openStorage } from '../storage/index.js';
import {
  LOOPBACK_HOSTS, SecretScrubber, UsageError, createGatewayRuntime, createRequestPacers, createMcpHttpRouter, killGroup, liveChildren, parseCommandLine,
  reapLeftoverGroups, recordProcessGroupsIn, scrubbingLogger, sourceChildEnv, sourceDepsFromEnv, sourceLimitsFlag, randomId, requestLog,
  requireAllowedHost, requireBearer, serveStdio, systemClock, type Clock, type FlagValues, type GatewayRuntime, type Logger,
  type RuntimeOptions, type SessionLimits,
} from './index.js';
import { createGatewayMetrics, metricsRoute } from './index.js';

const VERSION = '0.1.0';
type Env = Record<string, string | undefined>;

/** Everything `scigate serve` needs; tests build one directly. */
export interface ServeConfig {
  host: string;
  port: number;
  dataDir: string;
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
  const { secrets, log } = scrubbedLog(serveConfig, [tokenFile.token]);
  const config = { ...serveConfig, log };
  const metrics = await createGatewayMetrics();
  const storage = await openStorage({ dataDir: config.dataDir, log, onJournalFsync: (ms) => metrics.journalFsynced(ms) });
  await takeOverProcessGroups(config.dataDir, log);
  // The SSRF policy refuses this gateway's own listener, known once it listens.
  let listening: { hosts: string[]; port: number } | undefined;
  const urlPolicy = { allowPrivate: config.allowPrivateUrls === true, ownListener: () => listening };
  const runtime = await createRuntime(config, storage, { secrets, urlPolicy, metrics });
  // Over HTTP the admin API reads the catalog too: serve it discovered, as before.
  await runtime.registry.settled();
  const mcp = createMcpHttpRouter({ ...runtime.downstream, ...(config.sessionLimits ? { sessionLimits: config.sessionLimits } : {}) });
  metrics.collectSessions(() => mcp.sessionCount());
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(log));
  const loopback = LOOPBACK_HOSTS.includes(config.host);
  if (loopback || config.allowedHosts.length > 0) {
    const hosts = [...LOOPBACK_HOSTS, ...config.allowedHosts];
    app.use('/mcp', requireAllowedHost(hosts, { jsonRpc: true }));
    app.use(requireAllowedHost(hosts));
  }
  app.use('/mcp', requireBearer(tokenFile.token, { jsonRpc: true }), mcp.router);
  app.get('/metrics', requireBearer(tokenFile.token), metricsRoute(metrics));
  app.use(await adminAppFor(runtime, storage, tokenFile.token, config.log));
  const server = createServer(app);
  await listen(server, config.host, config.port).catch(async (error: unknown) => {
    await runtime.close();
    await storage.close();
    throw error;
  });
  const port = (server.address() as { port: number }).port;
  listening = { hosts: listenerHosts(config.host), port };
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  return {
    url,
    mcpUrl: `${url}/mcp`,
    token: tokenFile.token,
    tokenPath: tokenFile.path,
    stop: async () => {
      await mcp.closeAll();
      server.closeAllConnections();
      server.close();
      await runtime.close();
      await storage.close();
    },
  };
}

/**
 * Kills the stdio servers a gateway that died on this data directory left running, then records
 * ours there: done before the runtime starts any server.
 */
async function takeOverProcessGroups(dataDir: string, log: Logger): Promise<void> {
  const groups = new ProcessGroupFiles(dataDir);
  await reapLeftoverGroups(groups, log);
  recordProcessGroupsIn(groups, log);
}

/**
 * The gateway's one secret scrubber and its logger, which scrubs every line: the admin token and
 * the built-in sources' keys are known from the start, custom servers register theirs as they load.
 */
function scrubbedLog(config: Pick<ServeConfig, 'env' | 'log'>, tokens: string[]): { secrets: SecretScrubber; log: Logger } {
  const secrets = new SecretScrubber();
  secrets.register('admin-token', () => tokens);
  secrets.register('source-keys', () => [config.env.NCBI_API_KEY].filter((v): v is string => typeof v === 'string'));
  return { secrets, log: scrubbingLogger(config.log, secrets) };
}

/**
 * The admin API over this runtime and storage (served by `serve`, and by `stdio --admin-port`).
 * Imported on demand: `scigate stdio` without an admin port never loads express or the admin routes.
 */
async function adminAppFor(runtime: GatewayRuntime, storage: Awaited<ReturnType<typeof openStorage>>, token: string, log: Logger) {
  const { createAdminApp } = await import('../admin/index.js');
  return createAdminApp({
    ...storage, registry: runtime.registry, broker: runtime.broker, token, log, notReadyReason: () => undefined,
    events: runtime.events, clock: runtime.downstream.clock, permissionGate: runtime.permissionGate,
    customServers: runtime.customServers, selection: runtime.selection, secrets: runtime.secrets,
  });
}

/** The addresses a listener bound to `host` answers on (every interface's for 0.0.0.0 / ::). */
function listenerHosts(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host];
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return [host, ...addresses];
}

type RuntimeConfig = Pick<ServeConfig, 'env' | 'log' | 'isolateSources' | 'toolPrefix' | 'fetch' | 'sourceLimits' | 'extraSources' | 'approvalTimeoutMs' | 'elicitation' | 'clock'>;

async function createRuntime(
  config: RuntimeConfig,
  storage: Awaited<ReturnType<typeof openStorage>>,
  { secrets, urlPolicy, metrics }: { secrets: SecretScrubber; urlPolicy: CustomUrlPolicy; metrics?: RuntimeOptions['metrics'] },
) {
  const clock = config.clock ?? systemClock;
  // One pacer set for all in-process sources: the NCBI ones share their provider's request budget.
  const pacer = createRequestPacers(clock);
  return createGatewayRuntime({
    ...storage,
    metrics,
    log: config.log,
    secrets,
    clock,
    newId: randomId,
    version: VERSION,
    toolPrefix: config.toolPrefix,
    approvalTimeoutMs: config.approvalTimeoutMs,
    elicitation: config.elicitation,
    // Custom servers' `$NAME` values resolve against the gateway's own environment.
    custom: { store: storage.customServerStore, environment: config.env, urlPolicy },
    ...(config.sourceLimits ? { limitOverrides: config.sourceLimits } : {}),
    ...(config.extraSources ? { extraSources: config.extraSources } : {}),
    isolation: config.isolateSources
      ? { isolate: true, command: process.execPath, args: [fileURLToPath(import.meta.url), 'source'] }
      : { isolate: false },
    sourceDeps: (id) => sourceDepsFromEnv({ sourceId: id, env: config.env, version: VERSION, clock, pacer, ...(config.fetch ? { fetch: config.fetch } : {}) }),
    sourceChildEnv: (id) => sourceChildEnv(id, config.env),
  });
}

function listen(server: HttpServer, host: string, port: number, portFlag = '--port (SCIGATE_PORT)'): Promise<void> {
  return new Promise((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new UsageError(`Port ${port} on ${host} is already in use; choose another with ${portFlag}.`));
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(new UsageError(`Cannot listen on host ${host}; choose another with --host (SCIGATE_HOST).`));
      } else reject(error);
    });
    server.listen(port, host, () => resolveListen());
  });
}

function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { app: 'scigate' },
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'token', '*.token', 'env', '*.env'], censor: '[redacted]' },
    },
    pino.destination(2),
  ) as unknown as Logger;
}

/** Runs a command line; resolves with the process exit code. */
export async function main(argv: string[], env: Env): Promise<number> {
  try {
    const parsed = parseCommandLine(argv, env);
    if (parsed.command === 'help') {
      process.stdout.write(`${parsed.text}\n`);
      return 0;
    }
    const flags = parsed.flags;
    const log = createLogger(String(flags.logLevel ?? 'info'));
    switch (parsed.command) {
      case 'serve':
        return await runServe(flags, env, log);
      case 'stdio':
        return await runStdio(flags, env, log);
      case 'source':
        return await runSource(parsed.sourceId!, env, log);
      case 'token':
        return await runToken(flags);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`scigate: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`scigate: ${(error as Error).message}\n`);
    return 1;
  }
}

async function runServe(flags: FlagValues, env: Env, log: Logger): Promise<number> {
  const gateway = await startGateway({
    host: String(flags.host),
    port: Number(flags.port),
    dataDir: resolve(String(flags.dataDir)),
    isolateSources: flags.isolateSources === true,
    toolPrefix: flags.toolPrefix as ToolPrefix,
    allowedHosts: (flags.allowedHosts as string[] | undefined) ?? [],
    sourceLimits: sourceLimitsFlag(flags, env),
    ...permissionFlags(flags),
    sessionLimits: { idleTimeoutMs: Number(flags.sessionIdleTimeout ?? 1800) * 1000, maxSessions: Number(flags.maxSessions ?? 1000) },
    allowPrivateUrls: flags.allowPrivateUrls === true,
    env,
    log,
  });
  process.stderr.write(
    `scigate ${VERSION} is running.\n  MCP endpoint: ${gateway.mcpUrl}\n  Admin API:    ${gateway.url}/api\n` +
      `  Token file:   ${gateway.tokenPath}  (send it as "Authorization: Bearer <token>"; print it with "scigate token")\n`,
  );
  await stopSignal();
  await gateway.stop();
  return 0;
}

async function runStdio(flags: FlagValues, env: Env, rawLog: Logger): Promise<number> {
  const dataDir = resolve(String(flags.dataDir));
  await ensurePrivateDir(dataDir);
  const tokens: string[] = [];
  const { secrets, log } = scrubbedLog({ env, log: rawLog }, tokens);
  const storage = await openStorage({ dataDir, log });
  await takeOverProcessGroups(dataDir, log);
  const runtime = await createRuntime(
    { env, log, isolateSources: flags.isolateSources === true, toolPrefix: flags.toolPrefix as ToolPrefix, sourceLimits: sourceLimitsFlag(flags, env), ...permissionFlags(flags) },
    storage,
    { secrets, urlPolicy: { allowPrivate: flags.allowPrivateUrls === true } },
  );
  const admin = await serveStdioAdmin(flags, runtime, storage, log, tokens);
  await Promise.race([serveStdio({ ...runtime.downstream, projectId: String(flags.project) }), stopSignal()]);
  admin?.close();
  await runtime.close();
  await storage.close();
  return 0;
}

/** With --admin-port, approvals and audit stay reachable over HTTP while MCP runs on stdio. */
async function serveStdioAdmin(flags: FlagValues, runtime: GatewayRuntime, storage: Awaited<ReturnType<typeof openStorage>>, log: Logger, tokens: string[]) {
  const port = Number(flags.adminPort ?? 0);
  if (port === 0) return undefined;
  const host = String(flags.host);
  const token = await loadAdminToken(resolve(String(flags.dataDir)));
  const { default: express } = await import('express');
  tokens.push(token.token);
  const app = express();
  app.disable('x-powered-by');
  app.use(requireAllowedHost([...LOOPBACK_HOSTS, ...((flags.allowedHosts as string[] | undefined) ?? [])]));
  app.use(await adminAppFor(runtime, storage, token.token, log));
  const server = createServer(app);
  await listen(server, host, port, '--admin-port (SCIGATE_ADMIN_PORT)');
  process.stderr.write(`scigate admin API: http://${host}:${(server.address() as { port: number }).port}/api (token file: ${token.path})\n`);
  return server;
}

async function runSource(sourceId: string, env: Env, log: Logger): Promise<number> {
  const source = findBuiltinSource(sourceId);
  if (!source) throw new UsageError(`Unknown source "${sourceId}". Run "scigate source --help" and pick a built-in source id.`);
  const server = (await source.load()).createServer(sourceDepsFromEnv({ sourceId, env, version: VERSION, clock: systemClock, pacer: createRequestPacers(systemClock) }));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  log.info({ sourceId }, 'source server running on stdio');
  await Promise.race([closed, stopSignal()]);
  await server.close();
  return 0;
}

async function runToken(flags: FlagValues): Promise<number> {
  const dataDir = resolve(String(flags.dataDir));
  await ensurePrivateDir(dataDir);
  const token = await loadAdminToken(dataDir, { rotate: flags.rotate === true });
  process.stdout.write(`${token.token}\n`);
  process.stderr.write(`${token.created ? 'New token written to' : 'Token file:'} ${token.path}\n`);
  return 0;
}

/** `--approval-timeout` (seconds) and `--elicitation on|off`. */
function permissionFlags(flags: FlagValues): Pick<ServeConfig, 'approvalTimeoutMs' | 'elicitation'> {
  return { approvalTimeoutMs: Number(flags.approvalTimeout ?? 900) * 1000, elicitation: flags.elicitation !== 'off' };
}

function stopSignal(): Promise<void> {
  return Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]).then(() => undefined);
}

/** Kills every stdio child's process group, even when the gateway exits abruptly. */
function killChildrenOnExit(): void {
  process.once('exit', () => {
    for (const child of liveChildren) killGroup(child, 'SIGKILL');
  });
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) {
  killChildrenOnExit();
  void main(process.argv.slice(2), process.env).then((code) => process.exit(code));
}
