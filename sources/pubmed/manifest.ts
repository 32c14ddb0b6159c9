import { parseSourceManifest } from '../../catalog/index.js';

/** PubMed via NCBI E-utilities; shares the NCBI request budget (3 requests/s without an API key) with ClinVar and GEO. */
export const pubmedManifest = parseSourceManifest({
  id: 'pubmed',
  displayName: 'PubMed',
  description: 'Citations and abstracts of the biomedical literature from MEDLINE, life-science journals and online books (NCBI).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'pubmed',
  homepage: 'https://pubmed.ncbi.nlm.nih.gov/',
  tools: [
    {
      id: 'search',
      title: 'Search PubMed',
      description:
        'Search PubMed. The query uses PubMed syntax with field tags such as [ti], [tiab], [au], [ta], [dp], [mh], [pt], [doi] and AND/OR/NOT, e.g. "crispr[ti] AND 2020:2024[dp]". Optional date range (dateType pdat|edat|mdat with minDate/maxDate as YYYY[/MM[/DD]]), sort and paging; PubMed serves only the first 10,000 hits of a query. Returns records with abstracts and citations.',
      routingKeywords: ['pubmed', 'medline', 'biomedical literature', 'article', 'abstract', 'mesh', 'paper'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get PubMed articles by PMID',
      description:
        'Fetch PubMed articles by PMID (up to 50): structured abstract, authors, journal, year, DOI, PMCID and MeSH terms. When an article is in the PMC Open Access subset, its PDF, JATS XML, text and figure files are returned as download candidates with md5 checksums.',
      routingKeywords: ['pmid', 'pubmed', 'article', 'open access', 'pmc', 'full text'],
      idempotent: true,
    },
  ],
  license:
    'PubMed records are NLM data (US-government works, no copyright restrictions); abstracts may be copyrighted by their publishers. PMC Open Access articles carry their own per-article licenses.',
  attribution: 'Courtesy of the U.S. National Library of Medicine (PubMed, NCBI).',
  classification: 'public',
  allowedDomains: [
    'pubmed.ncbi.nlm.nih.gov',
    'pmc.ncbi.nlm.nih.gov',
    'www.ncbi.nlm.nih.gov',
    'eutils.ncbi.nlm.nih.gov',
    'ftp.ncbi.nlm.nih.gov',
    'pmc-oa-opendata.s3.amazonaws.com',
  ],
  // One call per second: a call makes up to two E-utilities requests (spaced by the client), so
  // NCBI's 3 requests/s holds in every one-second window. With NCBI_API_KEY the gateway allows 300 ms.
  limits: { concurrency: 1, minTimeMs: 1000, limitGroup: 'ncbi', timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  // NCBI sends no reliable Retry-After on 429 and asks callers to back off at least a second.
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
