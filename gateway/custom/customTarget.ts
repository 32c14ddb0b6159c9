import type { CustomServerConfig } from '../../catalog/index.js';
import { GatewayError } from '../core/index.js';
import type { UpstreamTarget } from '../upstream/index.js';

/** The gateway's own environment, passed in from main.ts (`$NAME` values resolve against it). */
export type GatewayEnvironment = Readonly<Record<string, string | undefined>>;

const REFERENCE = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;

/**
 * Where a custom server is, with every `$NAME` / `${NAME}` env or header value read from the
 * gateway's environment now (at connect time). A missing variable fails the connection, naming the
 * key and the variable but never a value.
 */
export function resolveCustomTarget(config: CustomServerConfig, environment: GatewayEnvironment): UpstreamTarget {
  if (config.transport === 'stdio') {
    return {
      kind: 'stdio',
      command: config.command,
      args: config.args,
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      env: resolveValues('env', config.env, environment),
    };
  }
  return { kind: config.transport, url: config.url, headers: resolveValues('headers', config.headers, environment) };
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

/** Every env/header value of a server, and what its `$NAME` references resolve to: what logs must never show. */
export function secretValuesOf(config: CustomServerConfig, environment: GatewayEnvironment): string[] {
  const values = Object.values(config.transport === 'stdio' ? config.env : config.headers);
  const resolved = values.map((value) => {
    const match = REFERENCE.exec(value);
    return match ? environment[match[1] ?? match[2]!] : undefined;
  });
  return [...values, ...resolved].filter((v): v is string => typeof v === 'string' && v.length > 0);
}
