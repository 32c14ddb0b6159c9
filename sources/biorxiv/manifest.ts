import { parseSourceManifest } from '../../catalog/index.js';

/** bioRxiv via api.biorxiv.org: no published rate limit, so at most one request a second. */
export const biorxivManifest = parseSourceManifest({
  id: 'biorxiv',
  displayName: 'bioRxiv',
  description: 'Preprints in the life sciences, posted before peer review (Cold Spring Harbor Laboratory).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'biorxiv',
  homepage: 'https://www.biorxiv.org/',
  tools: [
    {
      id: 'get',
      title: 'Get a bioRxiv preprint by DOI',
      description:
        'Fetch a bioRxiv preprint by DOI (10.1101/… or, for deposits since December 2025, 10.64898/…): every version, newest first, each with its full-text PDF as a download candidate and its license.',
      routingKeywords: ['biorxiv', 'preprint', 'doi', 'biology', 'life sciences'],
      idempotent: true,
    },
    {
      id: 'list',
      title: 'List bioRxiv preprints by date',
      description:
        'List bioRxiv preprints posted in a date interval (from/to as YYYY-MM-DD), optionally in one subject category such as "cell biology", paged with a numeric cursor (pass nextCursor). The API has no keyword search.',
      routingKeywords: ['biorxiv', 'new preprints', 'recent preprints', 'category', 'date range'],
      idempotent: true,
    },
  ],
  license:
    'bioRxiv metadata via api.biorxiv.org; each preprint carries its own license (CC BY, CC BY-NC, CC BY-ND, CC BY-NC-ND, CC0, or none = all rights reserved), given per record.',
  attribution: 'bioRxiv, Cold Spring Harbor Laboratory (www.biorxiv.org).',
  classification: 'public',
  allowedDomains: ['www.biorxiv.org', 'biorxiv.org', 'api.biorxiv.org'],
  // Both sources call the one api.biorxiv.org host, so they share one budget.
  limits: { concurrency: 1, minTimeMs: 1000, limitGroup: 'biorxiv-api', timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
