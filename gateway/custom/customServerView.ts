import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { effectiveCustomLimits, type CustomAuth, type CustomServerConfig, type CustomTransport, type EffectiveCustomLimits } from '../../catalog/index.js';
import type { HiddenTool, SourceEntry } from '../registry/index.js';
import type { ConnectionTestResult } from './connectionTest.js';
import type { AuthStateView, ServerAuthView } from './customOAuth.js';
import { redactedEntries } from './secretEdits.js';

/** Connection state, kept apart from auth state; `ready` means the checks passed, not every tool. */
export type ConnectionState = 'untested' | 'ready' | 'error' | 'disabled';

/** A custom server as the admin API shows it: every env/header key, every value `null`. */
export interface CustomServerView {
  id: string;
  name: string;
  transport: CustomTransport;
  enabled: boolean;
  timeoutSeconds: number;
  /** The limits governing its calls (defaults filled in) and which of them the admin set. */
  limits: EffectiveCustomLimits & { custom: Array<keyof EffectiveCustomLimits> };
  command?: string;
  args?: string[];
  cwd?: string | null;
  env?: Array<{ key: string; value: null }>;
  url?: string;
  headers?: Array<{ key: string; value: null }>;
  /** The auth settings; a set client secret shows as `null`, like every other secret. */
  auth?: { mode: 'none' } | { mode: 'oauth'; clientId: string | null; clientSecret: null; clientSecretSet: boolean; clientMetadataUrl: string | null; scope: string | null };
  /** OAuth state, apart from the connection state: `not_required` for servers without OAuth. */
  authState: AuthStateView;
  /** What to do about the OAuth state (log in, consent to a scope), or null. */
  authMessage: string | null;
  /** The scope a 403 `insufficient_scope` asked consent for, or null. */
  requiredScope: string | null;
  /** While authorized: when the access token expires (ISO); a refresh moves it. Null otherwise. */
  authExpiresAt: string | null;
  connection: { state: ConnectionState; message: string | null };
  discovery: SourceEntry['discovery'] | null;
  tools: Array<{ toolId: string; name: string; upstreamName: string; title: string; description: string; inputSchema: Tool['inputSchema'] }>;
  /** Tools kept from agents and why (schema failure, definition changed since accepted, …). */
  hidden: HiddenTool[];
  lastTest: ConnectionTestResult | null;
  createdAt: string;
  updatedAt: string;
}

/** What the view needs of a server's run-time state. */
export interface ServerSnapshot {
  config: CustomServerConfig;
  lastTest?: ConnectionTestResult;
  /** Why the gateway disabled the server itself, if it did. */
  stoppedReason?: string;
}

/** Builds the redacted view of one server from its config, its catalog entry and its last test. */
export function customServerView(
  state: ServerSnapshot,
  entry: SourceEntry | undefined,
  auth: ServerAuthView = { authState: 'not_required', authMessage: null, requiredScope: null, authExpiresAt: null },
): CustomServerView {
  const c = state.config;
  const settings =
    c.transport === 'stdio'
      ? { command: c.command, args: c.args, cwd: c.cwd ?? null, env: redactedEntries(c.env) }
      : { url: c.url, headers: redactedEntries(c.headers), auth: authView(c.auth) };
  return {
    id: c.id,
    name: c.name,
    transport: c.transport,
    enabled: c.enabled,
    timeoutSeconds: c.timeoutSeconds,
    limits: { ...effectiveCustomLimits(c.limits), custom: Object.keys(c.limits ?? {}) as Array<keyof EffectiveCustomLimits> },
    ...settings,
    ...auth,
    connection:
      !c.enabled && state.stoppedReason !== undefined
        ? { state: 'disabled', message: state.stoppedReason }
        : decideConnection(c.enabled, entry?.discovery, state.lastTest),
    discovery: entry?.discovery ?? null,
    tools: (entry?.tools ?? []).map((t) => ({
      toolId: t.toolId,
      name: t.name,
      upstreamName: t.upstreamName,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    hidden: entry?.hidden ?? [],
    lastTest: state.lastTest ?? null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** The newer of the catalog's discovery and the last connection test decides; disabled wins. */
export function decideConnection(
  enabled: boolean,
  discovery: SourceEntry['discovery'] | undefined,
  lastTest: ConnectionTestResult | undefined,
): { state: ConnectionState; message: string | null } {
  if (!enabled) return { state: 'disabled', message: lastTest ? testMessage(lastTest) : null };
  const discoveredAt = discovery?.state === 'ready' ? discovery.discoveredAt : undefined;
  const testIsNewer = lastTest && discovery?.state !== 'error' && (!discoveredAt || lastTest.testedAt >= discoveredAt);
  if (testIsNewer) return { state: lastTest.ok ? 'ready' : 'error', message: testMessage(lastTest) };
  if (discovery?.state === 'error') return { state: 'error', message: discovery.error ?? 'discovery failed' };
  if (discovery?.state === 'ready') return { state: 'ready', message: 'tools discovered' };
  return { state: 'untested', message: null };
}

function testMessage(test: ConnectionTestResult): string {
  const failed = test.checks.find((c) => !c.ok);
  return failed ? `${failed.name}: ${failed.message}` : 'connection test passed';
}

function authView(auth: CustomAuth): NonNullable<CustomServerView['auth']> {
  if (auth.mode === 'none') return { mode: 'none' };
  return {
    mode: 'oauth',
    clientId: auth.clientId ?? null,
    clientSecret: null,
    clientSecretSet: auth.clientSecret !== undefined,
    clientMetadataUrl: auth.clientMetadataUrl ?? null,
    scope: auth.scope ?? null,
  };
}
