import { isHostAllowed } from '../../catalog/index.js';
import { GatewayError } from '../core/index.js';

/**
 * Where a public URL is really fetched. In production the identity; a test or an offline mirror
 * maps public https origins to loopback ones (`--download-mirror`), while every policy check
 * (https, the source's allowedDomains) still runs on the public URL.
 */
export type PhysicalUrl = (publicUrl: URL) => URL;

/** Fetch the public URL itself. */
export const directUrl: PhysicalUrl = (url) => url;

/**
 * A mirror table `{ "https://arxiv.org": "http://127.0.0.1:8123" }` as a PhysicalUrl. Only loopback
 * targets are accepted: the table exists so that tests and offline runs never reach the internet.
 */
export function mirroredUrl(mirrors: Readonly<Record<string, string>>): PhysicalUrl {
  const table = new Map<string, URL>();
  for (const [from, to] of Object.entries(mirrors)) {
    const origin = URL.canParse(from) ? new URL(from).origin : undefined;
    if (!origin || origin === 'null') throw new Error(`the mirrored origin ${JSON.stringify(from)} is not a URL; write one such as "https://arxiv.org"`);
    const target = URL.canParse(to) ? new URL(to) : undefined;
    if (!target) throw new Error(`the mirror for ${from}, ${JSON.stringify(to)}, is not a URL; write one such as "http://127.0.0.1:8123"`);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
      throw new Error(`download mirror for ${from} must be a loopback URL (127.0.0.1, localhost or [::1]), not ${to}`);
    }
    // Only the public URL's origin is looked up, and its path replaces the mirror's: a path in either would be dropped.
    for (const [text, url] of [[from, new URL(from)], [to, target]] as const) {
      if (url.pathname !== '/' || url.search || url.hash) {
        throw new Error(`${text} has a path; a mirror maps one origin to another, e.g. {"https://arxiv.org":"http://127.0.0.1:8123"}`);
      }
    }
    table.set(origin, target);
  }
  return (url) => {
    const target = table.get(url.origin);
    if (!target) return url;
    return new URL(`${url.pathname}${url.search}`, target);
  };
}

/** A candidate or redirect URL the gateway may fetch: https, on one of the source's allowed domains. */
export function checkDownloadUrl(text: string, allowedDomains: readonly string[], what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new GatewayError('upstream_error', `The ${what} "${text.slice(0, 200)}" is not a valid URL; nothing was fetched from it.`, { details: { reason: 'bad_url' } });
  }
  if (url.protocol !== 'https:') {
    throw new GatewayError('upstream_error', `The ${what} ${url.href.slice(0, 200)} is not https; scigate downloads over https only.`, {
      details: { reason: 'not_https' },
    });
  }
  if (!isHostAllowed(url.hostname, allowedDomains)) {
    throw new GatewayError('upstream_error', `The ${what} ${url.href.slice(0, 200)} points at ${url.hostname}, which is not in the source's allowed domains; the download was stopped.`, {
      details: { reason: 'domain_not_allowed', host: url.hostname },
    });
  }
  return url;
}
