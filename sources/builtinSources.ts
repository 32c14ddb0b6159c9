import type { LazySource } from './shared/sourceDefinition.js';
import { arxivManifest } from './arxiv/manifest.js';
import { pubmedManifest } from './pubmed/manifest.js';
import { clinvarManifest } from './clinvar/manifest.js';
import { geoManifest } from './geo/manifest.js';
import { europepmcManifest } from './europepmc/manifest.js';
import { biorxivManifest } from './biorxiv/manifest.js';
import { medrxivManifest } from './medrxiv/manifest.js';
import { uniprotManifest } from './uniprot/manifest.js';
import { pdbManifest } from './pdb/manifest.js';
import { ensemblManifest } from './ensembl/manifest.js';
import { reactomeManifest } from './reactome/manifest.js';
import { chemblManifest } from './chembl/manifest.js';

/** Every built-in source, in catalog order; each one's server code is a dynamic import, paid for on first use. */
export const builtinSources: readonly LazySource[] = [
  { manifest: arxivManifest, load: async () => (await import('./arxiv/index.js')).arxivSource },
  { manifest: pubmedManifest, load: async () => (await import('./pubmed/index.js')).pubmedSource },
  { manifest: clinvarManifest, load: async () => (await import('./clinvar/index.js')).clinvarSource },
  { manifest: geoManifest, load: async () => (await import('./geo/index.js')).geoSource },
  { manifest: europepmcManifest, load: async () => (await import('./europepmc/index.js')).europepmcSource },
  { manifest: biorxivManifest, load: async () => (await import('./biorxiv/index.js')).biorxivSource },
  { manifest: medrxivManifest, load: async () => (await import('./medrxiv/index.js')).medrxivSource },
  { manifest: uniprotManifest, load: async () => (await import('./uniprot/index.js')).uniprotSource },
  { manifest: pdbManifest, load: async () => (await import('./pdb/index.js')).pdbSource },
  { manifest: ensemblManifest, load: async () => (await import('./ensembl/index.js')).ensemblSource },
  { manifest: reactomeManifest, load: async () => (await import('./reactome/index.js')).reactomeSource },
  { manifest: chemblManifest, load: async () => (await import('./chembl/index.js')).chemblSource },
];

/** The built-in source with this id, if any. */
export function findBuiltinSource(id: string): LazySource | undefined {
  return builtinSources.find((s) => s.manifest.id === id);
}
