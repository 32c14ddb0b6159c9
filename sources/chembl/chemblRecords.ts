import type { ArtifactCandidate, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import type { ChemblMechanism, ChemblMolecule } from './parseChembl.js';

const SOURCE_ID = 'chembl';
const SDF_LICENSE = 'CC BY-SA 3.0 (ChEMBL, EMBL-EBI)';
const MAX_SYNONYMS = 25;

/** One molecule as a normalized record, linked to its ChEMBL compound report card. */
export function chemblRecord(molecule: ChemblMolecule, mechanisms?: ChemblMechanism[]): McpRecord {
  const id = molecule.molecule_chembl_id;
  const url = `https://www.ebi.ac.uk/chembl/explore/compound/${id}`;
  const title = molecule.pref_name ?? id;
  const identifiers: Record<string, string> = { chembl: id };
  const inchiKey = molecule.molecule_structures?.standard_inchi_key;
  if (inchiKey) identifiers.inchikey = inchiKey;
  return {
    id: `${SOURCE_ID}:${id}`,
    sourceId: SOURCE_ID,
    sourceRecordId: id,
    kind: 'compound',
    title,
    url,
    identifiers,
    citation: { text: `${title} (${id}). ChEMBL, EMBL-EBI. ${url}`, venue: 'ChEMBL', url },
    summary: summaryOf(molecule),
    fields: moleculeFields(molecule, mechanisms),
  };
}

/** The SDF (molfile) of a molecule that has a structure; biologics without one get no candidate. */
export function chemblSdfCandidate(molecule: ChemblMolecule, artifactBase: string): ArtifactCandidate | undefined {
  const structures = molecule.molecule_structures;
  if (!structures?.molfile && !structures?.canonical_smiles) return undefined;
  const id = molecule.molecule_chembl_id;
  const url = `${artifactBase}/molecule/${id}.sdf`;
  return {
    id: candidateId(SOURCE_ID, id, url),
    sourceId: SOURCE_ID,
    sourceRecordId: id,
    url,
    kind: 'sdf',
    mediaType: 'chemical/x-mdl-sdfile',
    filename: safeFilename(`${id}.sdf`),
    license: SDF_LICENSE,
  };
}

function summaryOf(molecule: ChemblMolecule): string {
  const parts = [molecule.molecule_type ?? 'Molecule'];
  if (molecule.max_phase !== null) parts.push(`max phase ${molecule.max_phase}${molecule.max_phase === 4 ? ' (approved)' : ''}`);
  if (molecule.first_approval !== null) parts.push(`first approved ${molecule.first_approval}`);
  const formula = molecule.molecule_properties?.full_molformula;
  if (formula) parts.push(formula);
  return parts.join('; ');
}

function moleculeFields(molecule: ChemblMolecule, mechanisms: ChemblMechanism[] | undefined): JsonValue {
  const structures = molecule.molecule_structures;
  const props = molecule.molecule_properties;
  const synonyms = [...new Set((molecule.molecule_synonyms ?? []).flatMap((s) => (s.molecule_synonym ? [s.molecule_synonym] : [])))];
  return {
    preferredName: molecule.pref_name ?? null,
    moleculeType: molecule.molecule_type ?? null,
    maxPhase: molecule.max_phase,
    firstApproval: molecule.first_approval,
    oral: molecule.oral ?? null,
    parenteral: molecule.parenteral ?? null,
    topical: molecule.topical ?? null,
    blackBoxWarning: molecule.black_box_warning === null ? null : molecule.black_box_warning === 1,
    parentChemblId: molecule.molecule_hierarchy?.parent_chembl_id ?? null,
    structures: structures
      ? {
          canonicalSmiles: structures.canonical_smiles ?? null,
          standardInchi: structures.standard_inchi ?? null,
          standardInchiKey: structures.standard_inchi_key ?? null,
        }
      : null,
    properties: props ? propertyFields(props) : null,
    synonyms: synonyms.slice(0, MAX_SYNONYMS),
    atcClassifications: molecule.atc_classifications ?? [],
    ...(mechanisms ? { mechanisms: mechanisms.map(mechanismFields) } : {}),
    ...(molecule.score !== null ? { searchScore: molecule.score } : {}),
  };
}

function propertyFields(props: NonNullable<ChemblMolecule['molecule_properties']>): JsonValue {
  return {
    molecularFormula: props.full_molformula ?? null,
    fullMolecularWeight: props.full_mwt,
    freeBaseMolecularWeight: props.mw_freebase,
    alogp: props.alogp,
    hydrogenBondAcceptors: props.hba,
    hydrogenBondDonors: props.hbd,
    polarSurfaceArea: props.psa,
    rotatableBonds: props.rtb,
    ro5Violations: props.num_ro5_violations,
    qedWeighted: props.qed_weighted,
    aromaticRings: props.aromatic_rings,
    heavyAtoms: props.heavy_atoms,
  };
}

function mechanismFields(mechanism: ChemblMechanism): JsonValue {
  return {
    mechanismOfAction: mechanism.mechanism_of_action ?? null,
    actionType: mechanism.action_type ?? null,
    targetChemblId: mechanism.target_chembl_id ?? null,
    maxPhase: mechanism.max_phase,
    references: (mechanism.mechanism_refs ?? []).map((ref) => ({
      type: ref.ref_type ?? null,
      id: ref.ref_id ?? null,
      url: ref.ref_url ?? null,
    })),
  };
}
