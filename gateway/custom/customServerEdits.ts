import {
  MAX_CUSTOM_SERVERS, customServerConfigSchema, mergeCustomLimits, decideCustomUrl, serverNameKey, type AcceptToolsRequest, type CustomUrlPolicy, type CreateCustomServer,
  type CustomAuth, type CustomAuthRequest, type CustomServerConfig, type PatchCustomServer,
} from '../../catalog/index.js';
import { GatewayError, REDACTED, parseInput, type SecretScrubber } from '../core/index.js';
import { customToolId } from '../registry/index.js';
import { customServerLabel } from './customClients.js';
import { applySecretEdits } from './secretEdits.js';

const STDIO_FIELDS = ['command', 'args', 'cwd', 'env'] as const;
const REMOTE_FIELDS = ['url', 'headers', 'auth'] as const;

/** A new server's saved form (`id` chosen by the caller, `createdAt` = `updatedAt` = `now`). */
export function buildServerConfig(request: CreateCustomServer, id: string, now: string): CustomServerConfig {
  const limits = mergeCustomLimits(undefined, request.limits);
  const common = {
    id, name: request.name, enabled: request.enabled, timeoutSeconds: request.timeoutSeconds, ...(limits ? { limits } : {}), createdAt: now, updatedAt: now,
  };
  const config: CustomServerConfig =
    request.transport === 'stdio'
      ? {
          ...common,
          transport: 'stdio',
          command: request.command,
          args: request.args,
          ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
          env: applySecretEdits('env', {}, request.env),
        }
      : { ...common, transport: request.transport, url: request.url, headers: applySecretEdits('headers', {}, request.headers), auth: resolveAuth(request.auth, undefined) };
  return parseInput(customServerConfigSchema, config);
}

/** The saved form after an update; env/header edits follow the secret contract of seed §5.3. */
export function applyServerPatch(current: CustomServerConfig, patch: PatchCustomServer, now: string): CustomServerConfig {
  const transport = patch.transport ?? current.transport;
  const foreign = transport === 'stdio' ? REMOTE_FIELDS : STDIO_FIELDS;
  for (const field of foreign) {
    if (patch[field] !== undefined) throw invalid(field, `is not a setting of a${transport === 'stdio' ? ' stdio' : 'n http/sse'} server`);
  }
  const common = {
    id: current.id,
    name: patch.name ?? current.name,
    enabled: patch.enabled ?? current.enabled,
    timeoutSeconds: patch.timeoutSeconds ?? current.timeoutSeconds,
    ...limitsField(mergeCustomLimits(current.limits, patch.limits)),
    ...(current.acceptedTools ? { acceptedTools: current.acceptedTools } : {}),
    createdAt: current.createdAt,
    updatedAt: now,
  };
  if (transport === 'stdio') {
    const was = current.transport === 'stdio' ? current : undefined;
    const command = patch.command ?? was?.command;
    if (command === undefined) throw invalid('command', 'a stdio server needs a command');
    const cwd = patch.cwd === null ? undefined : (patch.cwd ?? was?.cwd);
    const env = patch.env ? applySecretEdits('env', was?.env ?? {}, patch.env) : (was?.env ?? {});
    return parseInput(customServerConfigSchema, { ...common, transport, command, args: patch.args ?? was?.args ?? [], ...(cwd ? { cwd } : {}), env });
  }
  const was = current.transport !== 'stdio' ? current : undefined;
  const url = patch.url ?? was?.url;
  if (url === undefined) throw invalid('url', `a${transport === 'http' ? 'n http' : 'n sse'} server needs a url`);
  const headers = patch.headers ? applySecretEdits('headers', was?.headers ?? {}, patch.headers) : (was?.headers ?? {});
  return parseInput(customServerConfigSchema, { ...common, transport, url, headers, auth: patch.auth ? resolveAuth(patch.auth, was?.auth) : (was?.auth ?? { mode: 'none' }) });
}

/** The fields the API shows scrubbed (a credential in a URL, an env value in an argument) and a PATCH may send back. */
const SHOWN_FIELDS = ['url', 'command', 'cwd'] as const;

/**
 * A PATCH that sends back a field as the API showed it, `[redacted]` in place of a saved secret
 * (the admin page's editor resends url and args as it got them), keeps the saved value: saving it
 * as written would replace a real API key with the text "[redacted]". A value with `[redacted]` that
 * is not the saved value's view is refused, since the secret it stood for cannot be known.
 */
export function restoreRedacted(current: CustomServerConfig, patch: PatchCustomServer, secrets: Pick<SecretScrubber, 'scrub'>): PatchCustomServer {
  const saved = current as Partial<Record<(typeof SHOWN_FIELDS)[number], string>> & { args?: string[] };
  const restored: PatchCustomServer = { ...patch };
  for (const field of SHOWN_FIELDS) {
    const sent = patch[field];
    if (typeof sent === 'string' && sent.includes(REDACTED)) restored[field] = savedBehind(sent, [saved[field]], secrets, field);
  }
  if (patch.args?.some((arg) => arg.includes(REDACTED))) {
    const savedArgs = saved.args ?? [];
    // The same position first (an unchanged list), else any saved argument shown the same way.
    restored.args = patch.args.map((arg, i) => (arg.includes(REDACTED) ? savedBehind(arg, [savedArgs[i], ...savedArgs], secrets, `args.${i}`) : arg));
  }
  return restored;
}

function savedBehind(sent: string, candidates: Array<string | undefined>, secrets: Pick<SecretScrubber, 'scrub'>, field: string): string {
  const saved = candidates.find((value) => value !== undefined && secrets.scrub(value) === sent);
  if (saved !== undefined) return saved;
  throw new GatewayError(
    'invalid_input',
    `${field}: holds "${REDACTED}", which stands for a saved secret the API does not show; send the real value, or leave ${field.split('.')[0]} out to keep the saved one.`,
    { details: { field } },
  );
}

/**
 * Checks a whole saved set before it is written: at most 50 servers and case-insensitively unique
 * names. `fieldOf` names the offending request field of a server (e.g. `mcpServers.<name>`).
 */
export function assertServerSet(servers: readonly CustomServerConfig[], fieldOf: (server: CustomServerConfig) => string): void {
  if (servers.length > MAX_CUSTOM_SERVERS) {
    throw new GatewayError(
      'invalid_input',
      `At most ${MAX_CUSTOM_SERVERS} custom servers can be saved; this would make ${servers.length}. Delete some first.`,
      { details: { limit: MAX_CUSTOM_SERVERS } },
    );
  }
  const byName = new Map<string, CustomServerConfig>();
  for (const server of servers) {
    const folded = serverNameKey(server.name);
    const other = byName.get(folded);
    if (other) throw invalid(fieldOf(server), `the name "${server.name}" is already used by ${customServerLabel(other)}; names are compared ignoring case and spaces`);
    byName.set(folded, server);
  }
}

/** Refuses an http/sse server whose URL the SSRF policy forbids; `field` names the request field. */
export function assertUrlAllowed(server: CustomServerConfig, policy: CustomUrlPolicy, field: string): void {
  if (server.transport === 'stdio') return;
  const refusal = decideCustomUrl(server.url, policy);
  if (refusal) throw invalid(field, refusal);
}

/** The saved auth after a request: `clientSecret: null` keeps the saved secret, leaving it out drops it. */
export function resolveAuth(requested: CustomAuthRequest, saved: CustomAuth | undefined): CustomAuth {
  if (requested.mode === 'none') return { mode: 'none' };
  const { clientSecret, ...rest } = requested;
  const kept = clientSecret === null ? (saved?.mode === 'oauth' ? saved.clientSecret : undefined) : clientSecret;
  return { ...rest, ...(kept !== undefined ? { clientSecret: kept } : {}) };
}

function limitsField(limits: CustomServerConfig['limits']): { limits?: NonNullable<CustomServerConfig['limits']> } {
  return limits ? { limits } : {};
}

function invalid(field: string, message: string): GatewayError {
  return new GatewayError('invalid_input', `${field}: ${message}`, { details: { field } });
}

/** The accepted definitions after accept-tools: every discovered tool, or the named ones. */
export function acceptedAfter(state: { config: CustomServerConfig; definitions?: Record<string, string> }, request: AcceptToolsRequest): Record<string, string> {
  const definitions = state.definitions;
  if (!state.config.enabled || !definitions) {
    throw new GatewayError('conflict', `${state.config.id} has no discovered tools to accept; enable it first (tools are discovered while enabled).`);
  }
  if (!request.tools) return { ...definitions };
  const accepted = { ...(state.config.acceptedTools ?? {}) };
  request.tools.forEach((wanted, index) => {
    const name = Object.keys(definitions).find((n) => n === wanted || customToolId(n) === wanted);
    if (!name) throw new GatewayError('invalid_input', `tools.${index}: ${state.config.id} lists no tool "${wanted.slice(0, 100)}".`, { details: { field: `tools.${index}` } });
    accepted[name] = definitions[name]!;
  });
  return accepted;
}

/** A server of an imported `mcpServers` document; an error names the entry it came from. */
export function importedServerConfig(request: CreateCustomServer, id: string, now: string): CustomServerConfig {
  try {
    return buildServerConfig(request, id, now);
  } catch (error) {
    const e = GatewayError.from(error);
    throw new GatewayError(e.code, `mcpServers.${request.name}.${e.message}`, { details: { field: `mcpServers.${request.name}` } });
  }
}
