import { z } from 'zod';
import { parseShape } from '../shared/parseShape.js';

const PROVIDER = 'ChEMBL';
const text = z.string().nullish();

/** ChEMBL sends many numbers as strings ("180.16", "4.0"); both read as numbers, anything else as null. */
const looseNumber = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined || value === '') return null;
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? n : null;
  });

const moleculeSchema = z.object({
  molecule_chembl_id: z.string().min(1),
  pref_name: text,
  max_phase: looseNumber,
  molecule_type: text,
  first_approval: looseNumber,
  oral: z.boolean().nullish(),
  parenteral: z.boolean().nullish(),
  topical: z.boolean().nullish(),
  black_box_warning: looseNumber,
  natural_product: looseNumber,
  molecule_structures: z
    .object({ canonical_smiles: text, standard_inchi: text, standard_inchi_key: text, molfile: text })
    .nullish(),
  molecule_properties: z
    .object({
      full_molformula: text,
      full_mwt: looseNumber,
      mw_freebase: looseNumber,
      alogp: looseNumber,
      hba: looseNumber,
      hbd: looseNumber,
      psa: looseNumber,
      rtb: looseNumber,
      num_ro5_violations: looseNumber,
      qed_weighted: looseNumber,
      aromatic_rings: looseNumber,
      heavy_atoms: looseNumber,
    })
    .nullish(),
  molecule_synonyms: z.array(z.object({ molecule_synonym: text, syn_type: text })).nullish(),
  molecule_hierarchy: z.object({ parent_chembl_id: text }).nullish(),
  atc_classifications: z.array(z.string()).nullish(),
  score: looseNumber,
});

const pageMetaSchema = z.object({
  limit: looseNumber,
  offset: looseNumber,
  total_count: looseNumber,
  next: text,
});

const mechanismSchema = z.object({
  action_type: text,
  mechanism_of_action: text,
  target_chembl_id: text,
  max_phase: looseNumber,
  mechanism_refs: z.array(z.object({ ref_type: text, ref_id: text, ref_url: text })).nullish(),
});

/** One ChEMBL molecule, numbers already parsed. */
export type ChemblMolecule = z.output<typeof moleculeSchema>;
/** One drug mechanism of a molecule. */
export type ChemblMechanism = z.output<typeof mechanismSchema>;

/** One page of a ChEMBL list endpoint. */
export interface ChemblPage<T> {
  items: T[];
  totalCount: number | null;
  offset: number | null;
  limit: number | null;
  /** `page_meta.next`: a path relative to the host, or null on the last page. */
  next: string | null;
}

/** Parses `molecule/{id}.json`. */
export function parseChemblMolecule(json: unknown): ChemblMolecule {
  return parseShape(moleculeSchema, json, PROVIDER, 'molecule');
}

/** Parses `molecule/search.json` (`{"molecules": [...], "page_meta": {...}}`). */
export function parseChemblMoleculePage(json: unknown): ChemblPage<ChemblMolecule> {
  const page = parseShape(z.object({ molecules: z.array(moleculeSchema), page_meta: pageMetaSchema }), json, PROVIDER, 'molecule page');
  return { items: page.molecules, ...metaOf(page.page_meta) };
}

/** Parses `mechanism.json?molecule_chembl_id=…` (`{"mechanisms": [...], "page_meta": {...}}`). */
export function parseChemblMechanismPage(json: unknown): ChemblPage<ChemblMechanism> {
  const page = parseShape(z.object({ mechanisms: z.array(mechanismSchema), page_meta: pageMetaSchema }), json, PROVIDER, 'mechanism page');
  return { items: page.mechanisms, ...metaOf(page.page_meta) };
}

/** Reads `page_meta` of any ChEMBL list endpoint (the list key differs per resource). */
export function parseChemblPageMeta(json: unknown): Omit<ChemblPage<never>, 'items'> {
  return metaOf(parseShape(z.object({ page_meta: pageMetaSchema }), json, PROVIDER, 'list page').page_meta);
}

function metaOf(meta: z.output<typeof pageMetaSchema>): Omit<ChemblPage<never>, 'items'> {
  return { totalCount: meta.total_count, offset: meta.offset, limit: meta.limit, next: meta.next ?? null };
}
