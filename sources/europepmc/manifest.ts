import { parseSourceManifest } from '../../catalog/index.js';

/** Europe PMC REST API (EMBL-EBI): no published rate limit, fair use; abusive clients are blocked, so one request at a time. */
export const europepmcManifest = parseSourceManifest({
  id: 'europepmc',
  displayName: 'Europe PMC',
  description: 'Life-science literature: PubMed/MEDLINE, PMC full texts, preprints, patents and more, with open-access full text (EMBL-EBI).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'europepmc',
  homepage: 'https://europepmc.org/',
  tools: [
    {
      id: 'search',
      title: 'Search Europe PMC',
      description:
        'Search Europe PMC. Query syntax: fielded terms such as TITLE:, AUTH:, DOI:, SRC:, PUB_TYPE:, OPEN_ACCESS:y, FIRST_PDATE:[2020-01-01 TO 2020-12-31] with AND/OR/NOT. Page with cursorMark: start at "*", then pass the nextCursorMark the previous page returned. resultType "core" adds abstracts, licenses, MeSH and open-access PDF download candidates.',
      routingKeywords: ['europe pmc', 'literature', 'article', 'preprint', 'open access', 'full text', 'abstract'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get Europe PMC records',
      description:
        'Fetch Europe PMC records (core detail) by PMID (20516115), PMCID (PMC3040717), DOI, preprint id (PPR123456) or SOURCE:id (MED:20516115, AGR:…), up to 25. Open-access PDFs come back as download candidates.',
      routingKeywords: ['pmid', 'pmcid', 'doi', 'europe pmc', 'article', 'open access pdf'],
      idempotent: true,
    },
  ],
  license:
    'Europe PMC metadata and abstracts: reuse per EMBL-EBI terms of use; abstracts and full texts remain under their publishers\' copyright unless the article carries an open license (see each record\'s license).',
  attribution: 'Europe PMC (europepmc.org), EMBL-EBI.',
  classification: 'public',
  allowedDomains: ['europepmc.org', 'www.ebi.ac.uk'],
  limits: { concurrency: 1, minTimeMs: 200, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
