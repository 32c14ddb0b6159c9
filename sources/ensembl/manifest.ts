import { parseSourceManifest } from '../../catalog/index.js';

/** Ensembl REST: documented limit 55,000 requests/hour per IP (~15/s), 429 + Retry-After beyond it. */
export const ensemblManifest = parseSourceManifest({
  id: 'ensembl',
  displayName: 'Ensembl',
  description: 'Genes, transcripts, proteins and their sequences from the Ensembl vertebrate genome annotation (REST API).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'ensembl',
  homepage: 'https://www.ensembl.org/',
  tools: [
    {
      id: 'search',
      title: 'Look up an Ensembl gene by symbol',
      description:
        'Look up a gene by symbol and species (Ensembl REST has no free-text search), e.g. symbol "BRCA2", species "homo_sapiens". Returns the gene record (location, biotype, description; transcripts with expand=true), or no record when the symbol is unknown.',
      routingKeywords: ['gene', 'ensembl', 'gene symbol', 'transcript', 'genome annotation', 'locus'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get an Ensembl record by stable id',
      description:
        'Fetch a gene, transcript, protein (translation) or exon by Ensembl stable id, versioned or not (ENSG00000139618, ENST00000380152.8, ENSP00000419060.2); expand=true adds transcripts and exons.',
      routingKeywords: ['ensembl id', 'ENSG', 'ENST', 'ENSP'],
      idempotent: true,
      cacheTtlMs: 86_400_000,
    },
    {
      id: 'sequence',
      title: 'Get an Ensembl sequence',
      description:
        'Fetch the sequence of an Ensembl stable id: type genomic, cdna, cds or protein (a gene gives one sequence per transcript/translation). Returns sequence records and each sequence as a FASTA candidate.',
      routingKeywords: ['sequence', 'fasta', 'cdna', 'cds', 'protein sequence', 'genomic sequence'],
      idempotent: true,
      cacheTtlMs: 86_400_000,
    },
  ],
  license:
    'Ensembl data: no restrictions on use (https://www.ensembl.org/info/about/legal/disclaimer.html); Ensembl REST API software: Apache 2.0',
  attribution:
    'Data from Ensembl (https://www.ensembl.org). Please cite the current Ensembl paper in Nucleic Acids Research and, for the REST API, Yates et al., Bioinformatics 31:143-145 (2015).',
  classification: 'public',
  allowedDomains: ['rest.ensembl.org', 'grch37.rest.ensembl.org', 'www.ensembl.org', 'ftp.ensembl.org'],
  limits: { concurrency: 3, minTimeMs: 67, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 },
});
