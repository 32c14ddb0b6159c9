/**
 * The parts `serve` and `stdio` wire alike: the logger, the secret scrubber, the runtime over the
 * opened storage, the admin app and an HTTP listener. Imported only by commands that need them, so
 * `scigate stdio` loads this (pino, storage, the runtime, the sources' manifests) after it answers.
 */
import type { Server as HttpServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { CustomUrlPolicy, LimitOverrides, ToolPrefix } from '../../catalog/index.js';
import { FileWorkspace, ProcessGroupFiles, followAdminToken, type AdminToken, type LiveAdminToken, type OpenedStore } from '../../storage/index.js';
import {
  DEFAULT_EXTRACTION_LIMITS, SecretScrubber, UsageError, createGatewayRuntime, createRequestPacers, killGroup, liveChildren, randomId, reapLeftoverGroups,
  scrubbingLogger, sourceChildEnv, sourceDepsFromEnv, systemClock, type Clock, type FlagValues, type GatewayRuntime, type Logger, type ProcessGroupRecord, type SharedLiveState,
  type ExtractionLimits, type RuntimeOptions, resolveExtractionLimits, mirroredUrl,
} from '../index.js';
import { readinessChecks } from './readiness.js';
import { VERSION } from './version.js';

export type Env = Record<string, string | undefined>;
export type Storage = OpenedStore;

/** What building the runtime reads from a command's configuration. */
export interface RuntimeConfig {
  env: Env;
  log: Logger;
  isolateSources: boolean;
  toolPrefix: ToolPrefix;
  fetch?: typeof globalThis.fetch;
  sourceLimits?: LimitOverrides;
  extraSources?: RuntimeOptions['extraSources'];
  approvalTimeoutMs?: number;
  elicitation?: boolean;
  adminApproval?: boolean;
  clock?: Clock;
  /** The data directory: with it, the Session workspaces live in `<dataDir>/workspaces` and artifact_download is offered. */
  dataDir?: string;
  /** Loopback mirrors of public download origins (`--download-mirrors`; tests and offline runs). */
  downloadMirrors?: Record<string, string>;
  /** paper_extract_pdf's limits (`--extraction-limits`); unset fields keep their defaults. */
  extractionLimits?: Partial<ExtractionLimits>;
  /** Limiters, request pacing, result cache and events shared with other replicas (`--redis`). */
  shared?: SharedLiveState;
  /** The Redis behind `shared`: isolated source children pace their provider requests through it too. */
  redisUrl?: string;
  /** Replicas on one PostgreSQL: how old a heartbeat may get before that replica counts as dead (`--replica-timeout`). */
  replicaTimeoutMs?: number;
  /** Where stdio servers' process groups are written down (from takeOverProcessGroups). */
  processGroups?: ProcessGroupRecord;
}

/**
 * The gateway's one secret scrubber and its logger, which scrubs every line: the admin token and
 * the built-in sources' keys are known from the start, custom servers register theirs as they load.
 */
export function scrubbedLog(config: { env: Env; log: Logger }, tokens: string[]): { secrets: SecretScrubber; log: Logger } {
  const secrets = new SecretScrubber();
  secrets.register('admin-token', () => tokens);
  secrets.register('source-keys', () => [config.env.NCBI_API_KEY].filter((v): v is string => typeof v === 'string'));
  return { secrets, log: scrubbingLogger(config.log, secrets) };
}

/**
 * The admin token in force, following its file (`scigate token --rotate` while the gateway runs):
 * a new token joins `tokens`, the values the logs scrub, before anything could log it.
 */
export function liveAdminToken(file: AdminToken, tokens: string[], log: Logger): LiveAdminToken {
  return followAdminToken(
    file,
    (token) => {
      tokens.push(token);
      log.info({ path: file.path }, 'the admin token file changed: from now on only its new token is accepted');
    },
    (error) => {
      log.warn(
        { path: file.path, code: error.code, uid: process.getuid?.() },
        'the admin token file changed but cannot be read: the token in force stays, and the new one is refused, until the file is readable by the user scigate runs as',
      );
    },
  );
}

/**
 * Kills the stdio servers a gateway that died on this data directory left running, and returns
 * the record ours are written to (the runtime's `processGroups`): done before any server starts.
 */
export async function takeOverProcessGroups(dataDir: string, log: Logger): Promise<ProcessGroupRecord> {
  const groups = new ProcessGroupFiles(dataDir);
  await reapLeftoverGroups(groups, log);
  return groups;
}

/** Kills every stdio child's process group, even when the gateway exits abruptly (registered once). */
export function killChildrenOnExit(): void {
  if (killChildrenRegistered) return;
  killChildrenRegistered = true;
  process.once('exit', () => {
    for (const child of liveChildren) killGroup(child, 'SIGKILL');
  });
}
let killChildrenRegistered = false;

/** The gateway runtime over opened storage. */
export async function createRuntime(
  config: RuntimeConfig,
  storage: Storage,
  { secrets, urlPolicy, metrics }: { secrets: SecretScrubber; urlPolicy: CustomUrlPolicy; metrics?: RuntimeOptions['metrics'] },
) {
  const clock = config.clock ?? systemClock;
  // One pacer set for all in-process sources: the NCBI ones share their provider's request budget
  // (with --redis, every replica's sources share it).
  const pacer = createRequestPacers(clock, config.shared?.pacers);
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
    ...(config.adminApproval === false ? { adminApproval: false } : {}),
    // Custom servers' `$NAME` values resolve against the gateway's own environment.
    custom: { store: storage.customServerStore, oauthLogins: storage.oauthLogins, environment: config.env, urlPolicy },
    ...(config.sourceLimits ? { limitOverrides: config.sourceLimits } : {}),
    ...(config.extraSources ? { extraSources: config.extraSources } : {}),
    ...(config.dataDir ? { workspace: new FileWorkspace(config.dataDir) } : {}),
    downloads: { ...(config.downloadMirrors ? { mirrors: config.downloadMirrors } : {}) },
    ...(config.extractionLimits ? { extractionLimits: config.extractionLimits } : {}),
    ...(config.shared ? { shared: config.shared } : {}),
    ...(config.replicaTimeoutMs !== undefined ? { replicaTimeoutMs: config.replicaTimeoutMs } : {}),
    ...(config.processGroups ? { processGroups: config.processGroups } : {}),
    // Isolated sources run as `scigate source <id>` children of the bundled entry point.
    isolation: config.isolateSources
      ? { isolate: true, command: process.execPath, args: [fileURLToPath(new URL('../../bundle/scigate.js', import.meta.url)), 'source'] }
      : { isolate: false },
    sourceDeps: (id) => sourceDepsFromEnv({ sourceId: id, env: config.env, version: VERSION, clock, pacer, ...(config.fetch ? { fetch: config.fetch } : {}) }),
    // A provider's request budget (NCBI's 3/s) holds across the isolated children and every replica.
    sourceChildEnv: (id) => ({ ...sourceChildEnv(id, config.env), ...(config.redisUrl ? { SCIGATE_REDIS: config.redisUrl } : {}) }),
  });
}

/**
 * The admin API over this runtime and storage (served by `serve`, and by `stdio --admin-port`).
 * Imported on demand: `scigate stdio` without an admin port never loads express or the admin routes.
 */
export async function adminAppFor(runtime: GatewayRuntime, storage: Storage, token: LiveAdminToken, log: Logger, shared?: SharedLiveState) {
  const { createAdminApp } = await import('../../admin/index.js');
  return createAdminApp({
    ...storage, registry: runtime.registry, broker: runtime.broker, token: token.current, tokenChanges: token.onChange, log, readiness: readinessChecks(storage, shared),
    events: runtime.events, clock: runtime.downstream.clock, permissionGate: runtime.permissionGate,
    customServers: runtime.customServers, selection: runtime.selection, secrets: runtime.secrets,
    ...(runtime.artifactDownloads ? { artifactDownloads: runtime.artifactDownloads } : {}),
    ...(runtime.workspace ? { workspace: runtime.workspace } : {}),
    ...(runtime.paperExtractions ? { paperExtractions: runtime.paperExtractions } : {}),
  });
}

/** Listens, turning a busy port or an unknown host into a usage error that names the flag. */
export function listen(server: HttpServer, host: string, port: number, portFlag = '--port (SCIGATE_PORT)'): Promise<void> {
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

/** `--download-mirrors`: a JSON object of public origin → loopback origin. */
export function downloadMirrorsFlag(flags: FlagValues): Record<string, string> {
  const parsed: unknown = JSON.parse(String(flags.downloadMirrors ?? '{}'));
  const valid = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((v) => typeof v === 'string');
  if (!valid) throw new UsageError('--download-mirrors (SCIGATE_DOWNLOAD_MIRRORS) must be a JSON object of origin → loopback URL strings.');
  try {
    mirroredUrl(parsed as Record<string, string>);
  } catch (error) {
    throw new UsageError(`--download-mirrors (SCIGATE_DOWNLOAD_MIRRORS): ${(error as Error).message}.`);
  }
  return parsed as Record<string, string>;
}

/** `--extraction-limits`: a JSON object of maxBytes, maxPages, maxHeapMb, timeoutMs (positive integers). */
export function extractionLimitsFlag(flags: FlagValues): Partial<ExtractionLimits> {
  const parsed: unknown = JSON.parse(String(flags.extractionLimits ?? '{}'));
  const known = Object.keys(DEFAULT_EXTRACTION_LIMITS);
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  const unknown = isObject ? Object.keys(parsed).filter((k) => !known.includes(k)) : [];
  if (!isObject || unknown.length > 0) {
    throw new UsageError(`--extraction-limits (SCIGATE_EXTRACTION_LIMITS) must be a JSON object of ${known.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}.`);
  }
  try {
    resolveExtractionLimits(parsed as Partial<ExtractionLimits>);
  } catch (error) {
    throw new UsageError(`--extraction-limits (SCIGATE_EXTRACTION_LIMITS): ${(error as Error).message}`);
  }
  return parsed as Partial<ExtractionLimits>;
}

/** `--approval-timeout` (seconds) and `--elicitation on|off`. */
/** `--audit-retention-days`, as openStorage takes it (absent: history is kept). */
export function auditRetentionFlag(flags: FlagValues): { auditRetentionDays?: number } {
  return flags.auditRetentionDays === undefined ? {} : { auditRetentionDays: Number(flags.auditRetentionDays) };
}

export function replicaTimeoutFlag(flags: FlagValues): Pick<RuntimeConfig, 'replicaTimeoutMs'> {
  return flags.replicaTimeout === undefined ? {} : { replicaTimeoutMs: Number(flags.replicaTimeout) * 1000 };
}

export function permissionFlags(flags: FlagValues): Pick<RuntimeConfig, 'approvalTimeoutMs' | 'elicitation'> {
  return { approvalTimeoutMs: Number(flags.approvalTimeout ?? 900) * 1000, elicitation: flags.elicitation !== 'off' };
}
