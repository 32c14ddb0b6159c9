import type { SourceDeps } from './sourceDefinition.js';

/**
 * The base URL of a source's second host (PubMed's PMC Open Data bucket, GEO's acc.cgi): the setting
 * when given, else the public host — unless the primary base URL is overridden. An override means
 * "talk to this host" (a mirror, a loopback test), so the public second host is not reached behind
 * its back; undefined then, and the source skips that lookup with a warning.
 */
export function secondaryBaseUrl(deps: SourceDeps, settingName: string, publicBase: string): string | undefined {
  const configured = deps.settings?.[settingName]?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  return deps.baseUrl ? undefined : publicBase.replace(/\/+$/, '');
}
