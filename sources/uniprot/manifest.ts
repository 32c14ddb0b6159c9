import { parseSourceManifest } from '../../catalog/index.js';

/** UniProt: no published rate limit; a few requests per second is polite use of rest.uniprot.org. */
export const uniprotManifest = parseSourceManifest({
  id: 'uniprot',
  displayName: 'UniProt',
  description: 'UniProtKB protein sequences and functional annotation (Swiss-Prot reviewed and TrEMBL unreviewed).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'uniprot',
  homepage: 'https://www.uniprot.org/',
  tools: [
    {
      id: 'search',
      title: 'Search UniProtKB',
      description:
        'Search UniProtKB proteins with UniProt query syntax, e.g. "gene:BRCA1 AND organism_id:9606 AND reviewed:true" or "protein_name:insulin". Returns protein records (names, gene, organism, length, function, reviewed flag) with a FASTA candidate each; page on with data.nextCursor.',
      routingKeywords: ['protein', 'uniprot', 'sequence', 'gene', 'function', 'swiss-prot', 'accession'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get a UniProtKB entry',
      description:
        'Fetch one UniProtKB entry by accession (P05067; isoforms as P05067-2): names, gene, organism, length, function, reviewed flag and cross-references, with the FASTA as a candidate.',
      routingKeywords: ['uniprot accession', 'protein entry', 'fasta'],
      idempotent: true,
      cacheTtlMs: 86_400_000,
    },
  ],
  license: 'CC BY 4.0 (https://www.uniprot.org/help/license)',
  attribution:
    'UniProt: the Universal Protein Knowledgebase. The UniProt Consortium, Nucleic Acids Research (current database issue). Data from https://www.uniprot.org/ under CC BY 4.0.',
  classification: 'public',
  allowedDomains: ['rest.uniprot.org', 'www.uniprot.org', 'ftp.uniprot.org'],
  limits: { concurrency: 2, minTimeMs: 200, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
