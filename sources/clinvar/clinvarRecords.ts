import type { JsonValue, McpRecord } from '../../catalog/index.js';
import { variantConditions, type ClinvarClassification, type ClinvarVariant } from './clinvarVariant.js';

const SOURCE_ID = 'clinvar';

/** The canonical ClinVar page of a variation. */
export function clinvarUrl(variationId: string): string {
  return `https://www.ncbi.nlm.nih.gov/clinvar/variation/${variationId}/`;
}

/** One ClinVar variation as a normalized record; interpretations stay attributed to their review status. */
export function clinvarRecord(variant: ClinvarVariant): McpRecord {
  const url = clinvarUrl(variant.variationId);
  const identifiers: Record<string, string> = { clinvar: variant.accession, clinvarVariationId: variant.variationId };
  if (variant.version) identifiers.clinvarVersion = `${variant.accession}.${variant.version}`;
  if (variant.dbsnp) identifiers.dbsnp = variant.dbsnp;
  const year = variant.lastUpdated ? Number(variant.lastUpdated.slice(0, 4)) : undefined;
  return {
    id: `${SOURCE_ID}:${variant.accession}`,
    sourceId: SOURCE_ID,
    sourceRecordId: variant.accession,
    kind: 'variant',
    title: variant.name || variant.accession,
    url,
    identifiers,
    citation: {
      text: citationText(variant, url),
      ...(year ? { year } : {}),
      venue: 'ClinVar',
      url,
    },
    summary: summaryText(variant),
    ...(variant.created ? { published: variant.created } : {}),
    fields: variantFields(variant),
  };
}

function variantFields(v: ClinvarVariant): JsonValue {
  return {
    variantType: v.variantType ?? null,
    recordStatus: v.recordStatus ?? null,
    germlineClassification: classificationJson(v.germline),
    somaticClinicalImpact: classificationJson(v.somatic),
    oncogenicityClassification: classificationJson(v.oncogenicity),
    genes: v.genes.map((g) => ({ symbol: g.symbol, geneId: g.geneId ?? null })),
    conditions: variantConditions(v),
    hgvs: v.hgvs,
    proteinChange: v.proteinChange ?? null,
    canonicalSpdi: v.canonicalSpdi ?? null,
    molecularConsequences: v.molecularConsequences,
    locations: v.locations.map((l) => ({ ...l })),
    rcvAccessions: v.rcvAccessions,
    submissionCount: v.submissionCount ?? null,
    lastUpdated: v.lastUpdated ?? null,
  };
}

function classificationJson(c: ClinvarClassification | undefined): JsonValue {
  if (!c) return null;
  return { description: c.description, reviewStatus: c.reviewStatus ?? null, lastEvaluated: c.lastEvaluated ?? null, conditions: c.conditions };
}

/** "Germline: Pathogenic (criteria provided, single submitter) for Hereditary spastic paraplegia 48. Genes: AP5Z1." */
function summaryText(v: ClinvarVariant): string {
  const parts = (
    [
      ['Germline', v.germline],
      ['Somatic clinical impact', v.somatic],
      ['Oncogenicity', v.oncogenicity],
    ] as const
  )
    .filter(([, c]) => c !== undefined)
    .map(([label, c]) => {
      const review = c!.reviewStatus ? ` (${c!.reviewStatus})` : '';
      const conditions = c!.conditions.length > 0 ? ` for ${c!.conditions.join('; ')}` : '';
      return `${label}: ${c!.description}${review}${conditions}.`;
    });
  if (parts.length === 0) parts.push('No aggregate classification.');
  if (v.genes.length > 0) parts.push(`Genes: ${v.genes.map((g) => g.symbol).join(', ')}.`);
  return parts.join(' ');
}

function citationText(v: ClinvarVariant, url: string): string {
  const accession = v.version ? `${v.accession}.${v.version}` : v.accession;
  const updated = v.lastUpdated ? ` Last updated ${v.lastUpdated}.` : '';
  return `ClinVar [${accession}]. ${v.name || v.accession}. National Center for Biotechnology Information.${updated} ${url}`;
}
