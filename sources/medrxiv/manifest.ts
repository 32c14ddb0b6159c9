import { parseSourceManifest } from '../../catalog/index.js';

/** medRxiv via api.biorxiv.org (the bioRxiv API): no published rate limit, so at most one request a second. */
export const medrxivManifest = parseSourceManifest({
  id: 'medrxiv',
  displayName: 'medRxiv',
  description: 'Preprints in medicine and the health sciences, posted before peer review (Cold Spring Harbor Laboratory, BMJ and Yale).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'medrxiv',
  homepage: 'https://www.medrxiv.org/',
  tools: [
    {
      id: 'get',
      title: 'Get a medRxiv preprint by DOI',
      description:
        'Fetch a medRxiv preprint by DOI (10.1101/… or, for deposits since December 2025, 10.64898/…): every version, newest first, each with its full-text PDF as a download candidate and its license.',
      routingKeywords: ['medrxiv', 'preprint', 'doi', 'medicine', 'health sciences', 'clinical'],
      idempotent: true,
    },
    {
      id: 'list',
      title: 'List medRxiv preprints by date',
      description:
        'List medRxiv preprints posted in a date interval (from/to as YYYY-MM-DD), optionally in one subject category such as "epidemiology", paged with a numeric cursor (pass nextCursor). The API has no keyword search.',
      routingKeywords: ['medrxiv', 'new preprints', 'recent preprints', 'category', 'date range'],
      idempotent: true,
    },
  ],
  license:
    'medRxiv metadata via api.biorxiv.org; each preprint carries its own license (CC BY, CC BY-NC, CC BY-ND, CC BY-NC-ND, CC0, or none = all rights reserved), given per record.',
  attribution: 'medRxiv, Cold Spring Harbor Laboratory, BMJ and Yale University (www.medrxiv.org).',
  classification: 'public',
  allowedDomains: ['www.medrxiv.org', 'medrxiv.org', 'api.biorxiv.org'],
  // Both sources call the one api.biorxiv.org host, so they share one budget.
  limits: { concurrency: 1, minTimeMs: 1000, limitGroup: 'biorxiv-api', timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
