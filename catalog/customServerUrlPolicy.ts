import { BlockList, isIP } from 'node:net';

/**
 * Where a custom http/sse server may point (the gateway's SSRF policy). Loopback is allowed:
 * local MCP servers and the tests live there. Link-local addresses (cloud metadata endpoints)
 * and the gateway's own listener are always refused; private ranges only with `allowPrivate`.
 */
export interface CustomUrlPolicy {
  /** Allow RFC 1918 / unique-local / CGNAT addresses (`--allow-private-urls`; default false). */
  allowPrivate: boolean;
  /** The gateway's own listener, once it listens: host names and addresses it answers on, and its port. */
  ownListener?: () => { hosts: readonly string[]; port: number } | undefined;
}

/** Host names of cloud metadata services that resolve to link-local addresses. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

function blockList(subnets: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [address, prefix, type] of subnets) list.addSubnet(address, prefix, type);
  return list;
}

/** Never a useful MCP endpoint: link-local (metadata), unspecified, multicast, broadcast. */
const ALWAYS_REFUSED = blockList([
  ['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6'], ['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6'],
  ['224.0.0.0', 4, 'ipv4'], ['255.255.255.255', 32, 'ipv4'], ['ff00::', 8, 'ipv6'], ['fd00:ec2::254', 128, 'ipv6'],
]);

const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['fc00::', 7, 'ipv6'],
]);

const LOOPBACK = blockList([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]);

/**
 * Why the gateway refuses to connect to `url`, or undefined when the policy allows it. Only the
 * literal host is judged (no DNS look-up): a public name that resolves to a private address is
 * not caught here.
 */
export function decideCustomUrl(url: string, policy: CustomUrlPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be the http:// or https:// URL of an MCP endpoint';
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) return `points at a cloud metadata service (${host}); the gateway never connects there`;
  if (pointsAtGateway(parsed, host, policy)) return 'points at this gateway itself; a custom server must be another MCP server';
  const type = isIP(host) === 4 ? 'ipv4' : isIP(host) === 6 ? 'ipv6' : undefined;
  if (!type) return undefined;
  if (ALWAYS_REFUSED.check(host, type)) return `points at ${host}, a link-local, unspecified or multicast address the gateway never connects to`;
  if (!policy.allowPrivate && PRIVATE.check(host, type)) {
    return `points at the private address ${host}; start the gateway with --allow-private-urls (SCIGATE_ALLOW_PRIVATE_URLS=true) to allow private ranges`;
  }
  return undefined;
}

function pointsAtGateway(url: URL, host: string, policy: CustomUrlPolicy): boolean {
  const own = policy.ownListener?.();
  if (!own) return false;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port !== own.port) return false;
  const type = isIP(host) === 4 ? 'ipv4' : isIP(host) === 6 ? 'ipv6' : undefined;
  const loopback = LOOPBACK_NAMES.has(host) || (type !== undefined && LOOPBACK.check(host, type));
  const ownHosts = own.hosts.map((h) => h.replace(/^\[|\]$/g, '').toLowerCase());
  // A gateway bound to every interface answers on loopback too.
  const wildcard = ownHosts.some((h) => h === '0.0.0.0' || h === '::');
  return ownHosts.includes(host) || (loopback && (wildcard || ownHosts.some((h) => LOOPBACK_NAMES.has(h) || h.startsWith('127.'))));
}
