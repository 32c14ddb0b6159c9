import type { CustomUrlPolicy, LimitOverrides, SourceManifest, ToolPrefix } from '../catalog/index.js';
import { builtinSources, type LazySource, type SourceDeps } from '../sources/index.js';
import { SourceLimiters, createBroker, type Broker } from './broker/index.js';
import type {
  Cas, Clock, CustomServerStore, InvocationStore, Logger, NewId, OAuthLoginStore, ProcessGroupRecord, ProjectStore, ReplicaStore, SecretScrubber, SessionStore,
  SettingsStore, SharedLiveState,
} from './core/index.js';
import { ArtifactDownloads, artifactDownloadTool, directUrl, mirroredUrl } from './artifacts/index.js';
import type { NativeTool } from './broker/index.js';
import { CustomServers, type GatewayEnvironment } from './custom/index.js';
import type { DownstreamDeps } from './listener/index.js';
import { EventHub, boundedWait, type ArtifactStore, type ExtractionStore, type PermissionStore, type SessionWorkspace } from './core/index.js';
import {
  PaperExtractions, createPdfWorkers, failUnfinishedExtractions, paperExtractPdfTool, resolveExtractionLimits, type ExtractionLimits,
} from './extraction/index.js';
import { noopMetrics, type GatewayMetrics } from './metrics/index.js';
import { createPermissionGate, type PermissionGate } from './permissions/index.js';
import { SourceRegistry, lazySourceServer } from './registry/index.js';
import { createConnectorSelection, type ConnectorSelection } from './selection/index.js';
import { UpstreamClient, messageBytesFor, type UpstreamTarget } from './upstream/index.js';

/** How built-in sources run: in-process over the in-memory transport, or each as a stdio child. */
export type SourceIsolation =
  | { isolate: false }
  | { isolate: true; command: string; args: string[] };

export interface RuntimeOptions {
  sessions: SessionStore;
  invocations: InvocationStore;
  cas: Cas;
  /** Expected to scrub through `secrets` already (see scrubbingLogger). */
  log: Logger;
  /** The gateway's one secret scrubber: custom servers register their secrets, the broker and the edges apply it. */
  secrets: SecretScrubber;
  clock: Clock;
  newId: NewId;
  version: string;
  toolPrefix: ToolPrefix;
  isolation: SourceIsolation;
  /** What each built-in source server is given (fetch, base URL override, NCBI settings). */
  sourceDeps: (sourceId: string) => SourceDeps;
  /** The environment a stdio source child needs (its base URL override and settings). */
  sourceChildEnv: (sourceId: string) => Record<string, string>;
  sources?: readonly LazySource[];
  /** Per-source limit overrides from config. */
  limitOverrides?: LimitOverrides;
  /** More sources reached over any transport (benchmarks, mirrors), governed like the built-ins. */
  extraSources?: ReadonlyArray<{ manifest: SourceManifest; target: UpstreamTarget }>;
  /** Projects and global settings: Sessions inherit connector selections (Session → Project → global). */
  projects: ProjectStore;
  settings: SettingsStore;
  /** Saved custom MCP servers and the environment their `$NAME` values resolve against. */
  custom: { store: CustomServerStore; environment: GatewayEnvironment; urlPolicy?: CustomUrlPolicy; oauthLogins?: OAuthLoginStore };
  /** Permission requests, Grants and authorizations. */
  permissions: PermissionStore;
  /** ExtractionJobs and PaperAcquisitions (paper_extract_pdf). */
  extractions: ExtractionStore;
  /** Longest wait for a human decision, in ms (default 15 minutes). */
  approvalTimeoutMs?: number;
  /** Also ask for permission inside clients that declared elicitation (default true). */
  elicitation?: boolean;
  /** Whether humans can decide through the admin API (default true; false for stdio without --admin-port). */
  adminApproval?: boolean;
  /** Where calls, queues, approvals and restarts are counted (default: not counted). */
  metrics?: GatewayMetrics;
  /** Artifact plans and jobs, and the Session workspaces: with both, `artifact_download` is offered. */
  artifacts?: ArtifactStore;
  workspace?: SessionWorkspace;
  /** How downloads reach file servers: loopback mirrors of public origins (tests, offline runs). */
  downloads?: { mirrors?: Record<string, string> };
  /** More native tools (paper_extract_pdf), audited by the broker like artifact_download. */
  nativeTools?: readonly NativeTool[];
  /** paper_extract_pdf's page, byte, heap and time limits (defaults: DEFAULT_EXTRACTION_LIMITS). */
  extractionLimits?: Partial<ExtractionLimits>;
  /** Limiters, result cache and events shared with the other replicas (`--redis`); default: this process only. */
  shared?: SharedLiveState;
  /** The replicas sharing the store (PostgreSQL): start-up and later sweeps end only dead replicas' pending work. */
  replicas?: ReplicaStore;
  /** How old a replica's heartbeat may get before its pending work is swept (default DEFAULT_REPLICA_TIMEOUT_MS). */
  replicaTimeoutMs?: number;
  /** Where every stdio server this runtime starts is written down while it runs (absent: in memory only). */
  processGroups?: ProcessGroupRecord;
}

/**
 * A replica on a shared store is dead once its heartbeat is this old (`--replica-timeout`); it beats
 * six times in that window, so a pause of a loaded machine is not mistaken for a death.
 */
const DEFAULT_REPLICA_TIMEOUT_MS = 30_000;
const BEATS_PER_TIMEOUT = 6;

export interface GatewayRuntime {
  registry: SourceRegistry;
  broker: Broker;
  downstream: DownstreamDeps & { clock: Clock };
  selection: ConnectorSelection;
  customServers: CustomServers;
  /** Live updates for the admin page (`GET /api/events`). */
  events: EventHub;
  /** Decides dangerous actions. */
  permissionGate: PermissionGate;
  /** The scrubber every exit applies (the admin API's responses too). */
  secrets: SecretScrubber;
  /** artifact_download's service (plans, jobs, cancel, retry), when storage has artifacts and a workspace. */
  artifactDownloads?: ArtifactDownloads;
  /** paper_extract_pdf's service (jobs for the admin API), when storage has a workspace. */
  paperExtractions?: PaperExtractions;
  workspace?: SessionWorkspace;
  /**
   * Stops every download and extraction where it is, their jobs kept for the next start. A stop
   * runs it before the MCP sessions close, whose closing would read as the clients cancelling them.
   */
  stopWork(): Promise<void>;
  close(): Promise<void>;
}

/** How long a close waits for the calls in flight to end once their sessions closed (they end at once when cancelled). */
const CANCELLED_CALLS_WAIT_MS = 10_000;

/** Registers the built-in sources, starts discovering their tools (see `registry.settled()`) and builds the broker. */
export async function createGatewayRuntime(options: RuntimeOptions): Promise<GatewayRuntime> {
  const registry = new SourceRegistry({ toolPrefix: options.toolPrefix, log: options.log, clock: options.clock });
  const metrics = options.metrics ?? noopMetrics;
  // Every client of a source counts its restarts and writes down the stdio servers it starts.
  const clientOptions = (id: string) => ({
    onRestart: () => metrics.upstreamRestarted(id),
    ...(options.processGroups ? { processGroups: options.processGroups } : {}),
  });
  for (const source of options.sources ?? builtinSources) {
    const id = source.manifest.id;
    const log = options.log.child({ sourceId: id });
    const target: UpstreamTarget = options.isolation.isolate
      ? { kind: 'stdio', command: options.isolation.command, args: [...options.isolation.args, id], env: options.sourceChildEnv(id) }
      : { kind: 'memory', createServer: () => lazySourceServer(source, () => options.sourceDeps(id), log) };
    const manifest = withOverrides(source.manifest, options.limitOverrides);
    const maxMessageBytes = messageBytesFor(manifest.limits.maxResponseBytes);
    const client = new UpstreamClient({ id, target, log, secrets: options.secrets, clock: options.clock, maxMessageBytes, ...clientOptions(id) });
    registry.add(manifest, client);
  }
  for (const extra of options.extraSources ?? []) {
    const id = extra.manifest.id;
    const manifest = withOverrides(extra.manifest, options.limitOverrides);
    const maxMessageBytes = messageBytesFor(manifest.limits.maxResponseBytes);
    const log = options.log.child({ sourceId: id });
    const client = new UpstreamClient({ id, target: extra.target, log, clock: options.clock, maxMessageBytes, ...clientOptions(id) });
    registry.add(manifest, client);
  }
  // Discovery runs in the background: the listeners wait for `registry.settled()` before they list
  // or call tools, so a stdio client is answered while the built-in sources' code is imported.
  void registry.discoverAll();
  const events = new EventHub();
  if (options.shared) events.connect(options.shared.relay, options.shared.replica);
  metrics.watchApprovals(events);
  // The admin page lists what discovery found (a custom server's tools after its OAuth login) live.
  registry.onChange(() => events.publish('catalog.changed', null, {}));
  const permissionGate = createPermissionGate({ ...options, store: options.permissions, events, approvalTimeoutMs: options.approvalTimeoutMs });
  const { projects, settings, sessions, clock } = options;
  const selection = createConnectorSelection({ sessions, projects, settings, registry, clock, storeOwned: !options.replicas });
  const limiters = new SourceLimiters(options.clock, options.shared?.limiters);
  metrics.collectLimiters(() => limiters.states());
  const artifactDownloads = await createArtifactDownloads(options, { registry, limiters, permissionGate, events });
  const extraction = createPaperExtractions(options, events);
  // Requests and jobs left pending by a crash can never be answered now: end them before serving.
  const sweepDeadWork = async (alive?: readonly string[]) => {
    if (alive === undefined) await sweepLastRun(options);
    await permissionGate.orphanPending(alive);
    // Calls in flight at a crash never finish now: their rows say so rather than staying invisible.
    const unfinished = await options.invocations.interruptUnfinished(new Date(options.clock.now()).toISOString(), alive);
    if (unfinished > 0) options.log.warn({ interrupted: unfinished }, 'tool calls in flight at the last stop were marked interrupted');
    await failUnfinishedExtractions({ store: options.extractions, clock: options.clock, log: options.log }, alive);
    const interrupted = (await artifactDownloads?.failInterrupted(alive)) ?? 0;
    if (interrupted > 0) options.log.warn({ interrupted }, 'download jobs left unfinished by a stopped gateway were marked failed; they can be retried');
  };
  const liveness = await startReplicaLiveness(options, sweepDeadWork);
  const nativeTools = [
    ...(artifactDownloads ? [artifactDownloadTool(artifactDownloads)] : []),
    ...(extraction ? [paperExtractPdfTool(extraction.service)] : []),
    ...(options.nativeTools ?? []),
  ];
  const broker = createBroker({
    ...options, metrics, registry, permissionGate, connectors: selection, random: Math.random, limiters, nativeTools,
    ...(options.shared ? { sharedCache: options.shared.cache } : {}),
  });
  const customServers = new CustomServers({
    ...options, ...options.custom, registry, broker, selection, events, onUpstreamRestart: (id) => metrics.upstreamRestarted(id),
  });
  // Custom Source IDs are registered before serving, so stored selections naming them stay valid.
  await customServers.start();
  const stopWork = async () => {
    await artifactDownloads?.close();
    await extraction?.service.close();
  };
  return {
    registry,
    broker,
    downstream: {
      registry, broker, sessions, newId: options.newId, log: options.log, version: options.version, clock,
      permissionGate, elicitation: options.elicitation !== false, connectors: selection, events,
      ...(options.workspace ? { workspace: options.workspace } : {}),
      startupDiscovery: () => customServers.startupDiscovered(),
      sessionClient: (sourceId, requests) => customServers.sessionClient(sourceId, requests),
      // Without replicas this process is the only writer of Sessions.
      sessionsOwned: !options.replicas,
    },
    selection,
    customServers,
    events,
    permissionGate,
    secrets: options.secrets,
    ...(artifactDownloads ? { artifactDownloads } : {}),
    ...(extraction ? { paperExtractions: extraction.service } : {}),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    stopWork,
    close: async () => {
      // The calls the stop cancelled (their sessions closed) finish by writing their audit rows,
      // which must land before storage closes; a call that ignores its cancellation is not waited for long.
      await boundedWait(broker.settled(), CANCELLED_CALLS_WAIT_MS);
      await liveness.stop();
      await customServers.close();
      await stopWork();
      events.disconnect();
      await extraction?.workers.close();
      await registry.close();
    },
  };
}

/**
 * Without replicas this process owns the store and the workspaces, so what they hold open is the
 * last run's: its Sessions' clients are gone (a kill -9 never ended them, and no idle timeout holds
 * them any more), and its unfinished uploads will never complete.
 */
async function sweepLastRun(options: RuntimeOptions): Promise<void> {
  const ended = await options.sessions.endAllOpen(new Date(options.clock.now()).toISOString());
  if (ended > 0) options.log.info({ ended }, 'sessions left open by the last run were ended');
  const removed = (await options.workspace?.removeUnfinishedWrites()) ?? 0;
  if (removed > 0) options.log.info({ removed }, 'uploads and workspace writes cut off by the last stop were removed');
}

/**
 * Sweeps the pending work of dead processes before serving. One process owning the store (embedded):
 * every leftover row is from a dead run, swept once. Replicas sharing a store: this one beats, and
 * only the work of replicas whose heartbeat stopped is swept, at start and after every later beat
 * (whichever replica notices first); a clean stop removes the heartbeat, so the others sweep at once.
 */
async function startReplicaLiveness(options: RuntimeOptions, sweep: (alive?: readonly string[]) => Promise<void>) {
  const { replicas, clock, log } = options;
  if (!replicas) {
    await sweep();
    return { stop: async () => {} };
  }
  const deadAfterMs = options.replicaTimeoutMs ?? DEFAULT_REPLICA_TIMEOUT_MS;
  const heartbeatMs = deadAfterMs / BEATS_PER_TIMEOUT;
  const beatAndSweep = async () => {
    await replicas.beat(new Date(clock.now()).toISOString());
    await sweep(await replicas.alive(new Date(clock.now() - deadAfterMs).toISOString()));
  };
  await beatAndSweep();
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await clock.sleep(heartbeatMs, stopping.signal);
      } catch {
        return;
      }
      // A store that does not answer for a while is reported, not fatal: the next beat tries again.
      await beatAndSweep().catch((error: unknown) => log.warn({ err: error }, 'the replica heartbeat or its sweep of dead replicas failed; retrying at the next beat'));
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      await loop;
      await replicas.leave().catch((error: unknown) => log.warn({ err: error }, 'this replica could not remove its heartbeat; the others sweep its work once it is stale'));
    },
  };
}

/** artifact_download's service, when storage has the artifact store and a workspace. */
async function createArtifactDownloads(
  options: RuntimeOptions,
  parts: { registry: SourceRegistry; limiters: SourceLimiters; permissionGate: PermissionGate; events: EventHub },
): Promise<ArtifactDownloads | undefined> {
  if (!options.artifacts || !options.workspace) return undefined;
  const mirrors = options.downloads?.mirrors ?? {};
  const downloads = new ArtifactDownloads({
    ...options, ...parts, store: options.artifacts, workspace: options.workspace, random: Math.random,
    physicalUrl: Object.keys(mirrors).length > 0 ? mirroredUrl(mirrors) : directUrl,
  });
  return downloads;
}

/** paper_extract_pdf's service and its warm, heap-limited pdf.js workers, when there are workspaces. */
function createPaperExtractions(options: RuntimeOptions, events: EventHub) {
  if (!options.artifacts || !options.workspace) return undefined;
  const limits = resolveExtractionLimits(options.extractionLimits);
  const workers = createPdfWorkers({ maxHeapMb: limits.maxHeapMb });
  const service = new PaperExtractions({
    ...options, store: options.extractions, artifacts: options.artifacts, workspace: options.workspace, events, limits, workers,
  });
  return { service, workers };
}

/** The manifest with config's limit overrides applied (unknown source ids are ignored). */
export function withOverrides(manifest: SourceManifest, overrides: LimitOverrides = {}): SourceManifest {
  const override = overrides[manifest.id];
  return override ? { ...manifest, limits: { ...manifest.limits, ...override } } : manifest;
}
