import { parseSourceManifest } from '../../catalog/index.js';

/** ChEMBL: no published rate limit (EMBL-EBI fair use; abusive clients are blocked); a `get` makes two requests. */
export const chemblManifest = parseSourceManifest({
  id: 'chembl',
  displayName: 'ChEMBL',
  description: 'Bioactive drug-like molecules, their structures, properties, clinical phase and mechanisms of action (EMBL-EBI).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'chembl',
  homepage: 'https://www.ebi.ac.uk/chembl/',
  tools: [
    {
      id: 'search',
      title: 'Search ChEMBL molecules',
      description:
        'Full-text search of ChEMBL molecules by name or synonym (e.g. "aspirin", "imatinib"). Returns compound records (preferred name, max phase, SMILES, InChIKey, properties) with an SDF candidate where a structure exists; page on with data.nextCursor.',
      routingKeywords: ['compound', 'drug', 'molecule', 'chembl', 'small molecule', 'smiles', 'inchikey', 'bioactivity'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get a ChEMBL molecule',
      description:
        'Fetch one ChEMBL molecule by id (CHEMBL25): preferred name, max phase, structures (SMILES, InChIKey), properties and mechanisms of action, with the SDF as a candidate.',
      routingKeywords: ['chembl id', 'compound report', 'mechanism of action', 'sdf'],
      idempotent: true,
      cacheTtlMs: 86_400_000,
    },
  ],
  license: 'CC BY-SA 3.0 (ChEMBL data, https://chembl.gitbook.io/chembl-interface-documentation/about#data-licensing)',
  attribution:
    'Data from ChEMBL (EMBL-EBI, https://www.ebi.ac.uk/chembl/). Please cite the current ChEMBL paper in Nucleic Acids Research and the ChEMBL release used.',
  classification: 'public',
  allowedDomains: ['www.ebi.ac.uk', 'ftp.ebi.ac.uk'],
  limits: { concurrency: 2, minTimeMs: 200, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
