import { customSourceManifest, sourceLabel, type CustomServerConfig } from '../../catalog/index.js';
import type { Clock, Logger, ProcessGroupRecord, SecretScrubber } from '../core/index.js';
import { UpstreamClient, messageBytesFor, type ClientRequests, type UpstreamAuth, type UpstreamClientOptions } from '../upstream/index.js';
import { resolveCustomTarget, type GatewayEnvironment } from './customTarget.js';

/**
 * Failures in a row (failed starts, lost connections, oversized messages) after which a custom
 * server is disabled, so a crash-looping or flooding server stops costing the gateway anything.
 */
export const CUSTOM_SERVER_MAX_FAILURES = 5;

/**
 * Calls in a row that get no answer in time before a custom server's connection is taken for hung
 * and started again (a stdio server restarted); each such restart counts as one failure above.
 */
export const CUSTOM_SERVER_MAX_TIMEOUTS_IN_A_ROW = 3;

/** How error messages name a custom server (see sourceLabel). */
export function customServerLabel(config: Pick<CustomServerConfig, 'id' | 'name'>): string {
  return sourceLabel({ id: config.id, displayName: config.name, type: 'custom' });
}

/** What the shared connection of every custom server declares (see CustomServers.sessionClient). */
const SHARED_CLIENT_CAPABILITIES = { sampling: {}, elicitation: { form: {} }, roots: {} };

interface CustomClientDeps {
  environment: GatewayEnvironment;
  log: Logger;
  secrets: SecretScrubber;
  clock: Clock;
  onUpstreamRestart?: (sourceId: string) => void;
  processGroups?: ProcessGroupRecord;
}

/** An upstream client for a custom server's current config: its target, timeouts, bounds and failure limit. */
export function createCustomClient(
  deps: CustomClientDeps,
  config: CustomServerConfig,
  { auth, ...extra }: Pick<UpstreamClientOptions, 'clientRequests' | 'onGiveUp'> & { auth?: UpstreamAuth },
): UpstreamClient {
  const manifest = customSourceManifest(config);
  return new UpstreamClient({
    id: config.id,
    name: customServerLabel(config),
    target: () => resolveCustomTarget(config, deps.environment, auth),
    log: deps.log.child({ sourceId: config.id }),
    secrets: deps.secrets,
    clock: deps.clock,
    connectTimeoutMs: config.timeoutSeconds * 1000,
    maxMessageBytes: messageBytesFor(manifest.limits.maxResponseBytes),
    maxConsecutiveFailures: CUSTOM_SERVER_MAX_FAILURES,
    maxTimeoutsInARow: CUSTOM_SERVER_MAX_TIMEOUTS_IN_A_ROW,
    onRestart: () => deps.onUpstreamRestart?.(config.id),
    ...(deps.processGroups ? { processGroups: deps.processGroups } : {}),
    ...extra,
  });
}

/**
 * The shared connection declares sampling, elicitation and roots so servers list the tools that
 * need them, and refuses those requests with the reason: a Session whose client can answer gets
 * a connection of its own (CustomServers.sessionClient).
 */
export function sharedClientRequests(serverName: string): ClientRequests {
  return {
    capabilities: SHARED_CLIENT_CAPABILITIES,
    refusal: (kind) =>
      kind === 'roots'
        ? `scigate answers roots requests from "${serverName.slice(0, 80)}" on each Session's own connection (the agent's roots, or its ` +
          'workspace directory); this shared connection speaks for no Session.'
        : `scigate forwards ${kind} requests from "${serverName.slice(0, 80)}" only to an agent whose MCP client declared the ${kind} ` +
          "capability, on that Session's own connection; this call came from a Session without it. Use a client that supports it.",
  };
}
