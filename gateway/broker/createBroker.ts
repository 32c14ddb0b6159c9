import type { McpToolResult } from '../../catalog/index.js';
import { CallsInFlight, withFields, type Cas, type Clock, type ConnectorSelectionReader, type InvocationStore, type Logger, type SecretScrubber, type SharedCache } from '../core/index.js';
import type { GatewayMetrics } from '../metrics/index.js';
import type { PermissionGate } from '../permissions/index.js';
import type { SourceRegistry } from '../registry/index.js';
import { SourceLimiters, type LimiterState } from './sourceLimiters.js';
import { callUpstream } from './stages/callUpstream.js';
import { withAudit } from './stages/withAudit.js';
import { withCache, type CacheOptions } from './stages/withCache.js';
import { withLimit } from './stages/withLimit.js';
import { withNativeTools } from './stages/withNativeTools.js';
import { withNormalize } from './stages/withNormalize.js';
import { withPermission } from './stages/withPermission.js';
import { withResolve } from './stages/withResolve.js';
import { withRetry } from './stages/withRetry.js';
import { withSizeLimit } from './stages/withSizeLimit.js';
import { withValidation } from './stages/withValidation.js';
import { toListedNativeTool, type NativeTool, type NativeToolResult } from './nativeTool.js';
import { compose, type Handler, type ToolOutcome, type ToolRequest } from './toolCall.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Everything the broker's stages are built from; every service is required. */
export interface BrokerDeps {
  registry: SourceRegistry;
  invocations: InvocationStore;
  cas: Cas;
  clock: Clock;
  log: Logger;
  /** Uniform random in [0, 1), for retry jitter. */
  random: () => number;
  /** Limiters shared by every Session. */
  limiters: SourceLimiters;
  /** Decides dangerous actions. */
  permissionGate: PermissionGate;
  /** The Session's effective connector selection (Session → Project → global). */
  connectors: ConnectorSelectionReader;
  /** The gateway's one secret scrubber (what the audit stores and callers get is scrubbed). */
  secrets: SecretScrubber;
  /** Counts every call's ending (calls, queue wait, cache hits and misses). */
  metrics: GatewayMetrics;
  cache?: CacheOptions;
  /** The result cache every replica reads (Redis), instead of this process's LRU. */
  sharedCache?: SharedCache;
  /** The gateway's own tools (artifact_download, …), audited like every call (default none). */
  nativeTools?: readonly NativeTool[];
}

/** What a call answers: a source's normalized result, or a native tool's structured result. */
export type BrokerOutcome = (ToolOutcome & { result: McpToolResult; native?: undefined }) | (ToolOutcome & { native: NativeToolResult; result?: undefined });

/** The only way to reach an upstream: every governed call goes through `call`. */
export interface Broker {
  call(request: ToolRequest): Promise<BrokerOutcome>;
  /** The native tools, as tools/list shows them. */
  nativeTools(): Tool[];
  /** Running and queued calls of a source's limiter. */
  limiterState(sourceId: string): LimiterState;
  /** Resolves once no call is running: a stop waits for the calls it cancelled to be audited before storage closes. */
  settled(): Promise<void>;
}

/**
 * The pipeline, outermost first (house style §2): each entry is a stage factory given the broker's
 * deps. `pipeline.test.ts` pins these functions and their order. The first three turn the agent's
 * request into a resolved call (or run a native tool, which governs its own work); the others all
 * see that immutable resolved call.
 */
export const PIPELINE = [
  withAudit, withNativeTools, withResolve, withValidation, withPermission, withCache, withRetry, withLimit, withSizeLimit, withNormalize,
] as const;

/** Builds the handler every call runs through, ending in `callUpstream`. */
function buildPipeline(deps: BrokerDeps): Handler<ToolRequest> {
  const [audit, native, resolve, ...governed] = PIPELINE;
  return audit(deps)(native(deps)(resolve(deps)(compose(governed.map((stage) => stage(deps)), callUpstream()))));
}

export function createBroker(deps: BrokerDeps): Broker {
  const handler = buildPipeline(deps);
  const running = new CallsInFlight();
  return {
    call: (request) =>
      running.track(async () => {
        const outcome = await handler(request);
        return outcome.native ? withFields(outcome, { native: outcome.native, result: undefined }) : withFields(outcome, { result: outcome.result!, native: undefined });
      }),
    settled: () => running.settled(),
    nativeTools: () => (deps.nativeTools ?? []).map(toListedNativeTool),
    limiterState: (sourceId) => deps.limiters.stateOf(sourceId, deps.registry.get(sourceId)?.manifest.limits.limitGroup),
  };
}
