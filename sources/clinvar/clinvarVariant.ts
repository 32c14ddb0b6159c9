/** One of ClinVar's three aggregate classifications (germline, somatic clinical impact, oncogenicity). */
export interface ClinvarClassification {
  description: string;
  reviewStatus?: string;
  lastEvaluated?: string;
  conditions: string[];
}

/** A gene the variation lies in or near. */
export interface ClinvarGene {
  symbol: string;
  geneId?: string;
}

/** Where the variation lies on one assembly (GRCh38, GRCh37). */
export interface ClinvarLocation {
  assembly: string;
  chr?: string;
  start?: string;
  stop?: string;
  cytogenetic?: string;
}

/** A ClinVar variation as both ESummary and the VCV XML describe it; the XML fills more fields. */
export interface ClinvarVariant {
  variationId: string;
  accession: string;
  version?: string;
  name: string;
  variantType?: string;
  recordStatus?: string;
  germline?: ClinvarClassification;
  somatic?: ClinvarClassification;
  oncogenicity?: ClinvarClassification;
  genes: ClinvarGene[];
  /** HGVS expressions (genomic, coding, protein); ESummary gives only the cDNA change. */
  hgvs: string[];
  proteinChange?: string;
  canonicalSpdi?: string;
  locations: ClinvarLocation[];
  molecularConsequences: string[];
  rcvAccessions: string[];
  submissionCount?: number;
  dbsnp?: string;
  created?: string;
  lastUpdated?: string;
}

/** Every condition named by any of the variant's classifications, once each. */
export function variantConditions(variant: ClinvarVariant): string[] {
  const all = [variant.germline, variant.somatic, variant.oncogenicity].flatMap((c) => c?.conditions ?? []);
  return [...new Set(all)];
}
