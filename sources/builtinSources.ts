import type { BuiltinSource } from './shared/sourceDefinition.js';
import { arxivSource } from './arxiv/index.js';
import { pubmedSource } from './pubmed/index.js';
import { clinvarSource } from './clinvar/index.js';
import { geoSource } from './geo/index.js';
import { europepmcSource } from './europepmc/index.js';
import { biorxivSource } from './biorxiv/index.js';
import { medrxivSource } from './medrxiv/index.js';
import { uniprotSource } from './uniprot/index.js';
import { pdbSource } from './pdb/index.js';
import { ensemblSource } from './ensembl/index.js';
import { reactomeSource } from './reactome/index.js';
import { chemblSource } from './chembl/index.js';

/** Every built-in source, in catalog order. */
export const builtinSources: readonly BuiltinSource[] = [
  arxivSource,
  pubmedSource,
  clinvarSource,
  geoSource,
  europepmcSource,
  biorxivSource,
  medrxivSource,
  uniprotSource,
  pdbSource,
  ensemblSource,
  reactomeSource,
  chemblSource,
];

/** The built-in source with this id, if any. */
export function findBuiltinSource(id: string): BuiltinSource | undefined {
  return builtinSources.find((s) => s.manifest.id === id);
}
