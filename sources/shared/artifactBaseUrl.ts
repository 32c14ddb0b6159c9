import { isHostAllowed } from '../../catalog/index.js';

/**
 * The base for candidate (download) URLs: the configured provider base when it is an https host the
 * manifest allows (a mirror, or Ensembl's GRCh37 server, whose files must match the records), the
 * provider's public base otherwise (a loopback test server or a plain-http mirror never leaks into
 * a candidate URL).
 */
export function artifactBaseUrl(configured: string | undefined, publicBase: string, allowedDomains: readonly string[]): string {
  if (configured) {
    try {
      const url = new URL(configured);
      if (url.protocol === 'https:' && isHostAllowed(url.hostname, allowedDomains)) {
        return configured.replace(/\/+$/, '');
      }
    } catch {
      // an unparsable override already fails every request; candidates keep the public base
    }
  }
  return publicBase.replace(/\/+$/, '');
}
