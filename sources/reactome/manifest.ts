import { parseSourceManifest } from '../../catalog/index.js';

/** Reactome ContentService: no published rate limit; a `get` makes two requests (record + participants). */
export const reactomeManifest = parseSourceManifest({
  id: 'reactome',
  displayName: 'Reactome',
  description: 'Curated, peer-reviewed biological pathways and reactions (Reactome Knowledgebase, ContentService API).',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'reactome',
  homepage: 'https://reactome.org/',
  tools: [
    {
      id: 'search',
      title: 'Search Reactome',
      description:
        'Search Reactome pathways and reactions by text (e.g. "MAPK signaling"), optionally by species (default Homo sapiens). Returns pathway/reaction records with plain-text names; page on with start.',
      routingKeywords: ['pathway', 'reactome', 'reaction', 'signaling', 'metabolism', 'biological process'],
      idempotent: true,
    },
    {
      id: 'get',
      title: 'Get a Reactome pathway or reaction',
      description:
        'Fetch a Reactome pathway or reaction by stable id (R-HSA-5673001, version suffix accepted): name, species, summation, literature references and participant count, with SBML/SBGN export candidates.',
      routingKeywords: ['reactome id', 'R-HSA', 'pathway detail', 'sbml'],
      idempotent: true,
      cacheTtlMs: 86_400_000,
    },
  ],
  license:
    'CC BY 4.0 for Reactome web services, exports and illustrations; CC0 1.0 for Reactome annotation files (https://reactome.org/license)',
  attribution:
    'Data from the Reactome Knowledgebase (https://reactome.org). Please cite the current Reactome paper in Nucleic Acids Research and the pathway by its stable id.',
  classification: 'public',
  allowedDomains: ['reactome.org'],
  limits: { concurrency: 2, minTimeMs: 200, timeoutSeconds: 60 },
  cacheTtlMs: 3_600_000,
  retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
});
