import { parseSourceManifest } from '../../catalog/index.js';

/** arXiv: the export API's terms ask for one request every 3 seconds on a single connection. */
export const arxivManifest = parseSourceManifest({
  id: 'arxiv',
  displayName: 'arXiv',
  description: 'Preprints in physics, mathematics, computer science, quantitative biology and related fields.',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'arxiv',
  homepage: 'https://arxiv.org/',
  tools: [
    {
      id: 'search',
      title: 'Search arXiv',
      description:
        'Search arXiv preprints. The query uses arXiv syntax: field prefixes ti:, au:, abs:, cat:, all: with AND, OR, ANDNOT, e.g. "ti:transformer AND cat:cs.LG". Returns records with citations and a PDF candidate per record.',
      routingKeywords: ['preprint', 'arxiv', 'physics', 'mathematics', 'computer science', 'machine learning', 'paper'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get arXiv papers by id',
      description:
        'Fetch arXiv papers by identifier: new style (2104.12255, 2104.12255v1) or old style (hep-th/9711200). Up to 50 ids.',
      routingKeywords: ['arxiv id', 'preprint', 'paper'],
      idempotent: true,
    },
  ],
  license:
    'arXiv metadata: CC0 1.0. Each e-print carries its own license (most: the arXiv non-exclusive distribution license); see its abstract page.',
  attribution: 'Thank you to arXiv for use of its open access interoperability.',
  classification: 'public',
  allowedDomains: ['arxiv.org', 'export.arxiv.org'],
  limits: { concurrency: 1, minTimeMs: 3000, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 3000, maxDelayMs: 30_000 },
});
