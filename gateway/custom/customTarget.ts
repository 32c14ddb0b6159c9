import type { CustomServerConfig } from '../../catalog/index.js';
import { GatewayError } from '../core/index.js';
import type { UpstreamAuth, UpstreamTarget } from '../upstream/index.js';

/** The gateway's own environment, passed in from main.ts (`$NAME` values resolve against it). */
export type GatewayEnvironment = Readonly<Record<string, string | undefined>>;

const REFERENCE = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;

/**
 * Where a custom server is, with every `$NAME` / `${NAME}` env or header value read from the
 * gateway's environment now (at connect time). A missing variable fails the connection, naming the
 * key and the variable but never a value.
 */
export function resolveCustomTarget(config: CustomServerConfig, environment: GatewayEnvironment, auth?: UpstreamAuth): UpstreamTarget {
  if (config.transport === 'stdio') {
    return {
      kind: 'stdio',
      command: config.command,
      args: config.args,
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      env: resolveValues('env', config.env, environment),
    };
  }
  return { kind: config.transport, url: config.url, headers: resolveValues('headers', config.headers, environment), ...(auth ? { auth } : {}) };
}

function resolveValues(field: string, values: Record<string, string>, environment: GatewayEnvironment): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      const match = REFERENCE.exec(value);
      if (!match) return [key, value];
      const name = match[1] ?? match[2]!;
      const resolved = environment[name];
      if (resolved === undefined) {
        throw new GatewayError('upstream_unavailable', `${field}.${key} refers to $${name}, which is not set in the gateway's environment.`);
      }
      return [key, resolved];
    }),
  );
}

/**
 * Every secret a server's config carries, as it can show up in output: env and header values (with
 * their `$NAME` references resolved, the reference itself is no secret), the credential after an
 * auth scheme (`Bearer <token>`), and the userinfo and key-like query values of its URL.
 */
export function secretValuesOf(config: CustomServerConfig, environment: GatewayEnvironment): string[] {
  const configured = Object.values(config.transport === 'stdio' ? config.env : config.headers);
  const values = configured.map((value) => {
    const match = REFERENCE.exec(value);
    return match ? environment[match[1] ?? match[2]!] : value;
  });
  const credentials = values.map((value) => (value === undefined ? undefined : AUTH_SCHEME.exec(value)?.[1]));
  const inUrl = config.transport === 'stdio' ? [] : urlSecretsOf(config.url);
  const oauthSecret = config.transport !== 'stdio' && config.auth.mode === 'oauth' ? [config.auth.clientSecret] : [];
  return [...values, ...credentials, ...inUrl, ...oauthSecret].filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/** `Bearer abc…`, `Basic …`, `Token …`: an upstream may echo the credential without its scheme. */
const AUTH_SCHEME = /^[A-Za-z][A-Za-z0-9_-]*\s+(\S+)$/;

/** Query parameter names whose values are credentials (`api_key`, `access_token`, `X-Amz-Signature`, …). */
const KEY_LIKE_PARAM = /(?:^|[-_.])(?:key|apikey|token|secret|password|passwd|pwd|sig|signature|credential|credentials|auth|session|code)$/i;

/** The userinfo and the key-like query values of a URL, decoded and as written. */
export function urlSecretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found = [parsed.username, parsed.password].flatMap((part) => [part, safeDecode(part)]);
  for (const [name, value] of parsed.searchParams) {
    if (KEY_LIKE_PARAM.test(name)) found.push(value, encodeURIComponent(value));
  }
  return found.filter((v) => v.length > 0);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
