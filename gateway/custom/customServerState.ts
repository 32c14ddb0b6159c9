import type { CustomUrlPolicy, CustomServerConfig, ToolPrefix } from '../../catalog/index.js';
import type { Broker } from '../broker/index.js';
import type { Clock, CustomServerStore, EventHub, Logger, NewId, OAuthLoginStore, ProcessGroupRecord, SecretScrubber, SessionStore } from '../core/index.js';
import type { SourceRegistry } from '../registry/index.js';
import type { ConnectorSelection } from '../selection/index.js';
import type { ConnectionTestResult } from './connectionTest.js';
import type { GatewayEnvironment } from './customTarget.js';

/** What CustomServers is built from, and what it keeps per server. */
export interface CustomServersDeps {
  store: CustomServerStore;
  registry: SourceRegistry;
  broker: Broker;
  sessions: SessionStore;
  selection: ConnectorSelection;
  /** The gateway's environment (from main.ts); `$NAME` values resolve against it at connect time. */
  environment: GatewayEnvironment;
  toolPrefix: ToolPrefix;
  clock: Clock;
  /** Already scrubbing: every line passes through `secrets`. */
  log: Logger;
  newId: NewId;
  /** Where http/sse servers may point (SSRF policy); private ranges refused when absent. */
  urlPolicy?: CustomUrlPolicy;
  /** The gateway's one scrubber; each server registers its env, header and URL secrets there. */
  secrets: SecretScrubber;
  /** Told when a server's connection is made again after it died (the upstream-restarts metric). */
  onUpstreamRestart?: (sourceId: string) => void;
  /** `mcp-oauth.enc` (OAuth logins); kept in memory when absent. */
  oauthLogins?: OAuthLoginStore;
  /** Live updates: OAuth state changes are published here. */
  events?: EventHub;
  /** Where the stdio servers' process groups are written down while they run (and probes'). */
  processGroups?: ProcessGroupRecord;
}

export interface ServerState {
  config: CustomServerConfig;
  /** Bumped by every save, so async work started before it cannot write stale results. */
  revision: number;
  lastTest?: ConnectionTestResult;
  /** Definition hashes of the last discovery, by upstream name (what accept-tools accepts). */
  definitions?: Record<string, string>;
  /** Why the gateway disabled the server itself (too many failures in a row); cleared by a save. */
  stoppedReason?: string;
}
