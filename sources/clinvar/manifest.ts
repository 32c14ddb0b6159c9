import { parseSourceManifest } from '../../catalog/index.js';

/** ClinVar via NCBI E-utilities; shares the NCBI request budget (3 requests/s without an API key) with PubMed and GEO. */
export const clinvarManifest = parseSourceManifest({
  id: 'clinvar',
  displayName: 'ClinVar',
  description: 'Human genetic variants and their clinical classifications, with the conditions and the review status behind them (NCBI).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'clinvar',
  homepage: 'https://www.ncbi.nlm.nih.gov/clinvar/',
  tools: [
    {
      id: 'search',
      title: 'Search ClinVar',
      description:
        'Search ClinVar variants by gene symbol, condition, variant text (HGVS such as "NM_007294.4:c.5266dupC", rsID) or a free query with ClinVar field tags (e.g. "BRCA1[gene] AND pathogenic[clnsig]"). Returns one record per variation with its germline, somatic and oncogenicity classifications, review status, genes and conditions.',
      routingKeywords: ['clinvar', 'variant', 'mutation', 'pathogenic', 'hgvs', 'clinical significance', 'gene', 'condition'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get ClinVar variations',
      description:
        'Fetch ClinVar variations by VCV accession (VCV000014206, version optional) or Variation ID (14206), up to 20: full classifications (germline, somatic clinical impact, oncogenicity) with review status and conditions, genes, all HGVS expressions, location and RCV accessions.',
      routingKeywords: ['vcv', 'variation id', 'clinvar', 'variant classification', 'hgvs'],
      idempotent: true,
    },
  ],
  license:
    'ClinVar data are NCBI public-domain data without use restrictions; each interpretation belongs to its submitter, so cite ClinVar with the accession and review status.',
  attribution: 'ClinVar, National Center for Biotechnology Information (NCBI), U.S. National Library of Medicine.',
  classification: 'public',
  allowedDomains: ['www.ncbi.nlm.nih.gov', 'eutils.ncbi.nlm.nih.gov', 'ftp.ncbi.nlm.nih.gov'],
  // One call per second: a call makes up to two E-utilities requests (spaced by the client), so
  // NCBI's 3 requests/s holds in every one-second window. With NCBI_API_KEY the gateway allows 300 ms.
  limits: { concurrency: 1, minTimeMs: 1000, limitGroup: 'ncbi', timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  // NCBI sends no reliable Retry-After on 429 and asks callers to back off at least a second.
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
