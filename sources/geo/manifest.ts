import { parseSourceManifest } from '../../catalog/index.js';

/** GEO via NCBI E-utilities (db=gds) and the GEO download area; shares the NCBI request budget with PubMed and ClinVar. */
export const geoManifest = parseSourceManifest({
  id: 'geo',
  displayName: 'Gene Expression Omnibus (GEO)',
  description: 'Functional genomics data sets: expression and sequencing series, samples, platforms and curated datasets (NCBI).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'geo',
  homepage: 'https://www.ncbi.nlm.nih.gov/geo/',
  tools: [
    {
      id: 'search',
      title: 'Search GEO',
      description:
        'Search GEO series, samples, platforms and datasets (E-utilities db=gds). The query takes field tags such as [ACCN], [ORGN], [PDAT], [ETYP]; entryType (gse|gsm|gpl|gds) and organism narrow it. An accession term also matches the records related to it. Returns records and each series matrix file as a download candidate.',
      routingKeywords: ['geo', 'gene expression', 'rna-seq', 'microarray', 'dataset', 'series', 'gse', 'transcriptomics'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get GEO records by accession',
      description:
        'Fetch GEO records by accession (GSE, GSM, GPL or GDS; up to 20). Series and samples come with their supplementary files (listed from the SOFT text) and series matrix files as https download candidates on ftp.ncbi.nlm.nih.gov; datasets with their SOFT file.',
      routingKeywords: ['gse', 'gsm', 'gpl', 'gds', 'geo accession', 'supplementary files', 'series matrix'],
      idempotent: true,
    },
  ],
  license: 'NCBI places no restrictions on the use of GEO data; submitters may claim rights in their submissions, so cite the series and its publication.',
  attribution: 'Gene Expression Omnibus (GEO), National Center for Biotechnology Information (NCBI), U.S. National Library of Medicine.',
  classification: 'public',
  allowedDomains: ['www.ncbi.nlm.nih.gov', 'eutils.ncbi.nlm.nih.gov', 'ftp.ncbi.nlm.nih.gov'],
  // One call per second: a call makes up to two E-utilities requests (spaced by the client), so
  // NCBI's 3 requests/s holds in every one-second window. With NCBI_API_KEY the gateway allows 300 ms.
  limits: { concurrency: 1, minTimeMs: 1000, limitGroup: 'ncbi', timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  // NCBI sends no reliable Retry-After on 429 and asks callers to back off at least a second.
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
