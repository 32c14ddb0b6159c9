import { parseSourceManifest } from '../../catalog/index.js';

/** RCSB PDB: no published rate limit, throttles with 429 under heavy use; a `get` makes 1 + one request per polymer entity. */
export const pdbManifest = parseSourceManifest({
  id: 'pdb',
  displayName: 'Protein Data Bank (RCSB PDB)',
  description: 'Experimentally determined 3D structures of proteins, nucleic acids and complexes from the RCSB Protein Data Bank.',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'pdb',
  homepage: 'https://www.rcsb.org/',
  tools: [
    {
      id: 'search',
      title: 'Search the PDB',
      description:
        'Full-text search of experimental PDB entries (e.g. "hemoglobin", "spike glycoprotein SARS-CoV-2"). Returns structure records (title, method, resolution, release date, primary citation) with mmCIF/PDB file candidates; page on with start.',
      routingKeywords: ['protein structure', 'pdb', 'crystal structure', 'cryo-em', 'nmr', '3d structure', 'rcsb'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get a PDB entry',
      description:
        'Fetch one PDB entry by its 4-character id (4HHB): title, experimental method, resolution, release date, polymer entities (description, chains, organism, UniProt ids) and the primary citation with DOI/PMID, with mmCIF and (where offered) PDB-format file candidates.',
      routingKeywords: ['pdb id', 'structure entry', 'mmcif'],
      idempotent: true,
      cacheTtlMs: 86_400_000,
    },
  ],
  license: 'CC0 1.0 (PDB data, https://www.rcsb.org/pages/usage-policy)',
  attribution:
    'Data from the RCSB Protein Data Bank (RCSB.org; H.M. Berman et al., The Protein Data Bank, Nucleic Acids Research 28:235-242, 2000). Please cite each entry by its primary citation and DOI.',
  classification: 'public',
  allowedDomains: ['files.rcsb.org', 'models.rcsb.org', 'www.rcsb.org', 'files.wwpdb.org'],
  limits: { concurrency: 2, minTimeMs: 200, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
