import { z } from 'zod';
import { parseShape } from '../shared/parseShape.js';
import { normalizeWhitespace } from '../shared/text.js';
import { clinvarDate, vcvAccession } from './clinvarIds.js';
import type { ClinvarClassification, ClinvarVariant } from './clinvarVariant.js';

const text = z.union([z.string(), z.number()]).transform(String);

const classificationSchema = z
  .object({
    description: z.string().optional(),
    last_evaluated: z.string().optional(),
    review_status: z.string().optional(),
    trait_set: z.array(z.object({ trait_name: z.string().optional() })).optional(),
  })
  .optional();

const summarySchema = z.object({
  uid: text,
  accession: z.string().optional(),
  accession_version: z.string().optional(),
  title: z.string().optional(),
  obj_type: z.string().optional(),
  record_status: z.string().optional(),
  protein_change: z.string().optional(),
  germline_classification: classificationSchema,
  clinical_impact_classification: classificationSchema,
  oncogenicity_classification: classificationSchema,
  genes: z.array(z.object({ symbol: z.string().optional(), geneid: text.optional() })).optional(),
  molecular_consequence_list: z.array(z.string()).optional(),
  supporting_submissions: z.object({ scv: z.array(z.string()).optional(), rcv: z.array(z.string()).optional() }).optional(),
  variation_set: z
    .array(
      z.object({
        variation_name: z.string().optional(),
        cdna_change: z.string().optional(),
        canonical_spdi: z.string().optional(),
        variant_type: z.string().optional(),
        variation_xrefs: z.array(z.object({ db_source: z.string().optional(), db_id: text.optional() })).optional(),
        variation_loc: z
          .array(
            z.object({
              assembly_name: z.string().optional(),
              chr: z.string().optional(),
              band: z.string().optional(),
              start: text.optional(),
              stop: text.optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
});

/** Reads one db=clinvar ESummary document (post-2024 layout with three `*_classification` objects). */
export function parseClinvarSummary(doc: unknown): ClinvarVariant {
  const s = parseShape(summarySchema, doc, 'ClinVar', 'ESummary document');
  const variation = s.variation_set?.[0];
  const version = /\.(\d+)$/.exec(s.accession_version ?? '')?.[1];
  const variant: ClinvarVariant = {
    variationId: s.uid,
    accession: s.accession?.trim() || vcvAccession(s.uid),
    name: normalizeWhitespace(s.title ?? variation?.variation_name ?? ''),
    genes: (s.genes ?? []).filter((g) => g.symbol).map((g) => (g.geneid ? { symbol: g.symbol!, geneId: g.geneid } : { symbol: g.symbol! })),
    hgvs: [variation?.variation_name, variation?.cdna_change].filter((h): h is string => Boolean(h?.trim())),
    locations: (variation?.variation_loc ?? []).map((l) => ({
      assembly: l.assembly_name ?? '',
      ...(l.chr ? { chr: l.chr } : {}),
      ...(l.start ? { start: l.start } : {}),
      ...(l.stop ? { stop: l.stop } : {}),
      ...(l.band ? { cytogenetic: l.band } : {}),
    })),
    molecularConsequences: s.molecular_consequence_list ?? [],
    rcvAccessions: s.supporting_submissions?.rcv ?? [],
  };
  const dbsnp = variation?.variation_xrefs?.find((x) => x.db_source === 'dbSNP')?.db_id;
  const optional: Partial<ClinvarVariant> = {
    version,
    variantType: variation?.variant_type ?? s.obj_type,
    recordStatus: s.record_status || undefined,
    germline: classification(s.germline_classification),
    somatic: classification(s.clinical_impact_classification),
    oncogenicity: classification(s.oncogenicity_classification),
    proteinChange: s.protein_change || undefined,
    canonicalSpdi: variation?.canonical_spdi || undefined,
    submissionCount: s.supporting_submissions?.scv?.length,
    dbsnp: dbsnp ? `rs${dbsnp.replace(/^rs/, '')}` : undefined,
  };
  return Object.assign(variant, Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)));
}

/** Unused classifications are present but empty (description "", last_evaluated "1/01/01 00:00"). */
function classification(raw: z.output<typeof classificationSchema>): ClinvarClassification | undefined {
  const description = raw?.description?.trim();
  if (!raw || !description) return undefined;
  const result: ClinvarClassification = {
    description,
    conditions: (raw.trait_set ?? []).map((t) => t.trait_name?.trim() ?? '').filter(Boolean),
  };
  if (raw.review_status) result.reviewStatus = raw.review_status;
  const evaluated = clinvarDate(raw.last_evaluated);
  if (evaluated) result.lastEvaluated = evaluated;
  return result;
}
