import type { McpToolResult, SourceManifest } from '../../catalog/index.js';
import type { Cas, Clock, ConnectorSelectionReader, InvocationStore, Logger } from '../core/index.js';
import type { SourceRegistry } from '../registry/index.js';
import type { PermissionGate } from '../permissions/index.js';
import { callUpstream } from './stages/callUpstream.js';
import { withAudit } from './stages/withAudit.js';
import { withCache, type CacheOptions } from './stages/withCache.js';
import { withLimit } from './stages/withLimit.js';
import { withRetry } from './stages/withRetry.js';
import { SourceLimiters, type LimiterState } from './sourceLimiters.js';
import { withNormalize } from './stages/withNormalize.js';
import { withPermission } from './stages/withPermission.js';
import { withResolve } from './stages/withResolve.js';
import { withSizeLimit } from './stages/withSizeLimit.js';
import { withValidation } from './stages/withValidation.js';
import { compose, type Stage, type ToolCall, type ToolOutcome } from './toolCall.js';

export interface BrokerDeps {
  registry: SourceRegistry;
  invocations: InvocationStore;
  cas: Cas;
  clock: Clock;
  log: Logger;
  /** Uniform random in [0, 1), for retry jitter (default Math.random). */
  random?: () => number;
  /** Limiters shared by every Session (created here when absent). */
  limiters?: SourceLimiters;
  cache?: CacheOptions;
  /** Decides dangerous actions; without it they are refused (fail closed). */
  permissionGate?: PermissionGate;
  /** The Session's effective connector selection (Session → Project → global); the Session's own when absent. */
  connectors?: ConnectorSelectionReader;
}

/** The only way to reach an upstream: every governed call goes through `call`. */
export interface Broker {
  call(call: ToolCall): Promise<ToolOutcome & { result: McpToolResult }>;
  /** Running and queued calls of a source's limiter. */
  limiterState(sourceId: string): LimiterState;
}

/** The pipeline, outermost first (house style §2); `pipeline.test.ts` pins this order. */
export function pipelineStages(deps: BrokerDeps): Array<[name: string, stage: Stage]> {
  const manifestOf = (sourceId: string): SourceManifest => {
    const entry = deps.registry.get(sourceId);
    if (!entry) throw new Error(`source ${sourceId} is not registered`);
    return entry.manifest;
  };
  const limiters = deps.limiters ?? new SourceLimiters();
  return [
    ['withAudit', withAudit(deps)],
    ['withResolve', withResolve(deps.registry, deps.connectors)],
    ['withValidation', withValidation()],
    ['withPermission', withPermission({ gate: deps.permissionGate, clock: deps.clock })],
    ['withCache', withCache(deps.cache)],
    ['withRetry', withRetry({ clock: deps.clock, random: deps.random ?? Math.random, policyOf: (id) => manifestOf(id).retry })],
    ['withLimit', withLimit({ limiters, limitsOf: (id) => manifestOf(id).limits, clock: deps.clock })],
    ['withSizeLimit', withSizeLimit({ maxBytesOf: (id) => manifestOf(id).limits.maxResponseBytes })],
    ['withNormalize', withNormalize({ manifestOf, clock: deps.clock })],
  ];
}

export function createBroker(input: BrokerDeps): Broker {
  const deps = { ...input, limiters: input.limiters ?? new SourceLimiters() };
  const timeoutMsOf = (sourceId: string) => (deps.registry.get(sourceId)?.manifest.limits.timeoutSeconds ?? 60) * 1000;
  const handler = compose(
    pipelineStages(deps).map(([, stage]) => stage),
    callUpstream({ registry: deps.registry, clock: deps.clock, timeoutMsOf }),
  );
  return {
    call: async (call) => {
      const outcome = await handler(call);
      return { raw: outcome.raw, result: outcome.result! };
    },
    limiterState: (sourceId) => deps.limiters.stateOf(sourceId, deps.registry.get(sourceId)?.manifest.limits.limitGroup),
  };
}
