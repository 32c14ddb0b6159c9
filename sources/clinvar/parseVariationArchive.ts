import { ProviderError } from '../shared/providerError.js';
import { normalizeWhitespace } from '../shared/text.js';
import { childOf, childrenOf, textOf, type XmlElement } from '../shared/xml.js';
import { clinvarDate, vcvAccession } from './clinvarIds.js';
import type { ClinvarClassification, ClinvarGene, ClinvarLocation, ClinvarVariant } from './clinvarVariant.js';

/** Variation kinds a ClassifiedRecord or IncludedRecord may hold. */
const VARIATION_ELEMENTS = ['SimpleAllele', 'Haplotype', 'Genotype'];

/**
 * Parses VCV XML (schema 2.0, post-2024 `Classifications` layout): the `ClinVarResult-Set` that
 * `efetch rettype=vcv` returns, or a weekly release file, both holding VariationArchive elements.
 */
export function parseVariationArchives(root: XmlElement): ClinvarVariant[] {
  const archives = root.local === 'VariationArchive' ? [root] : childrenOf(root, '', 'VariationArchive');
  if (archives.length === 0 && !['ClinVarResult-Set', 'ClinVarVariationRelease', 'set'].includes(root.local)) {
    throw new ProviderError('upstream_error', `ClinVar sent <${root.local}> where VCV XML was expected`, { retryable: true });
  }
  return archives.map(parseArchive).filter((v): v is ClinvarVariant => v !== undefined);
}

function parseArchive(archive: XmlElement): ClinvarVariant | undefined {
  const a = archive.attrs;
  const variationId = a.VariationID?.trim();
  if (!variationId || !/^\d+$/.test(variationId)) return undefined;
  const record = childOf(archive, '', 'ClassifiedRecord') ?? childOf(archive, '', 'IncludedRecord');
  const variation = record && VARIATION_ELEMENTS.map((n) => childOf(record, '', n)).find(Boolean);
  const classifications = record && childOf(record, '', 'Classifications');
  const variant: ClinvarVariant = {
    variationId,
    accession: a.Accession?.trim() || vcvAccession(variationId),
    name: normalizeWhitespace(a.VariationName ?? '') || text(variation && childOf(variation, '', 'Name')),
    genes: variation ? readGenes(variation) : [],
    hgvs: variation ? readHgvs(variation) : [],
    locations: variation ? readLocations(variation) : [],
    molecularConsequences: variation ? readConsequences(variation) : [],
    rcvAccessions: record ? readRcvs(record) : [],
  };
  const optional: Partial<ClinvarVariant> = {
    version: a.Version,
    variantType: a.VariationType,
    recordStatus: text(childOf(archive, '', 'RecordStatus')) || undefined,
    germline: readClassification(classifications && childOf(classifications, '', 'GermlineClassification')),
    somatic: readClassification(classifications && childOf(classifications, '', 'SomaticClinicalImpact')),
    oncogenicity: readClassification(classifications && childOf(classifications, '', 'OncogenicityClassification')),
    canonicalSpdi: text(variation && childOf(variation, '', 'CanonicalSPDI')) || undefined,
    proteinChange: readProteinChange(variation),
    submissionCount: a.NumberOfSubmissions ? Number(a.NumberOfSubmissions) : undefined,
    dbsnp: readDbsnp(variation),
    created: clinvarDate(a.DateCreated),
    lastUpdated: clinvarDate(a.DateLastUpdated),
  };
  return Object.assign(variant, Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)));
}

/** Somatic clinical impact may carry several Descriptions (one per assertion type); they are joined. */
function readClassification(el: XmlElement | undefined): ClinvarClassification | undefined {
  if (!el) return undefined;
  const descriptions = childrenOf(el, '', 'Description');
  const description = descriptions.map(text).filter(Boolean).join('; ');
  if (!description) return undefined;
  const classification: ClinvarClassification = { description, conditions: readConditions(el) };
  const reviewStatus = text(childOf(el, '', 'ReviewStatus'));
  if (reviewStatus) classification.reviewStatus = reviewStatus;
  const evaluated = clinvarDate(descriptions.map((d) => d.attrs.DateLastEvaluated).find(Boolean));
  if (evaluated) classification.lastEvaluated = evaluated;
  return classification;
}

function readConditions(classification: XmlElement): string[] {
  const list = childOf(classification, '', 'ConditionList');
  const traits = (list ? childrenOf(list, '', 'TraitSet') : []).flatMap((set) => childrenOf(set, '', 'Trait'));
  return traits
    .map((trait) => {
      const names = childrenOf(trait, '', 'Name').map((n) => childOf(n, '', 'ElementValue'));
      const preferred = names.find((v) => v?.attrs.Type === 'Preferred') ?? names[0];
      return text(preferred);
    })
    .filter(Boolean);
}

function readGenes(variation: XmlElement): ClinvarGene[] {
  const list = childOf(variation, '', 'GeneList');
  return (list ? childrenOf(list, '', 'Gene') : [])
    .filter((g) => g.attrs.Symbol)
    .map((g) => (g.attrs.GeneID ? { symbol: g.attrs.Symbol!, geneId: g.attrs.GeneID } : { symbol: g.attrs.Symbol! }));
}

function readHgvs(variation: XmlElement): string[] {
  const list = childOf(variation, '', 'HGVSlist');
  const expressions = (list ? childrenOf(list, '', 'HGVS') : []).flatMap((h) =>
    ['NucleotideExpression', 'ProteinExpression'].map((n) => text(path(h, n, 'Expression'))),
  );
  return [...new Set(expressions.filter(Boolean))];
}

function readProteinChange(variation: XmlElement | undefined): string | undefined {
  const list = variation && childOf(variation, '', 'HGVSlist');
  const hgvs = list ? childrenOf(list, '', 'HGVS') : [];
  // The MANE Select transcript's protein change is the one clinicians quote.
  const mane = hgvs.find((h) => childOf(h, '', 'NucleotideExpression')?.attrs.MANESelect === 'true');
  const protein = (mane ? [mane] : hgvs).map((h) => childOf(h, '', 'ProteinExpression')).find(Boolean);
  return protein?.attrs.change;
}

function readLocations(variation: XmlElement): ClinvarLocation[] {
  const location = childOf(variation, '', 'Location');
  if (!location) return [];
  const cytogenetic = text(childOf(location, '', 'CytogeneticLocation'));
  return childrenOf(location, '', 'SequenceLocation').map((s) => {
    const loc: ClinvarLocation = { assembly: s.attrs.Assembly ?? '' };
    if (s.attrs.Chr) loc.chr = s.attrs.Chr;
    if (s.attrs.start) loc.start = s.attrs.start;
    if (s.attrs.stop) loc.stop = s.attrs.stop;
    if (cytogenetic) loc.cytogenetic = cytogenetic;
    return loc;
  });
}

function readConsequences(variation: XmlElement): string[] {
  const list = childOf(variation, '', 'HGVSlist');
  const types = (list ? childrenOf(list, '', 'HGVS') : []).flatMap((h) =>
    childrenOf(h, '', 'MolecularConsequence').map((m) => m.attrs.Type ?? ''),
  );
  return [...new Set(types.filter(Boolean))];
}

function readRcvs(record: XmlElement): string[] {
  const list = childOf(record, '', 'RCVList');
  return (list ? childrenOf(list, '', 'RCVAccession') : []).map((r) => r.attrs.Accession ?? '').filter(Boolean);
}

function readDbsnp(variation: XmlElement | undefined): string | undefined {
  const list = variation && childOf(variation, '', 'XRefList');
  const rs = (list ? childrenOf(list, '', 'XRef') : []).find((x) => x.attrs.DB === 'dbSNP' && /^\d+$/.test(x.attrs.ID ?? ''));
  return rs ? `rs${rs.attrs.ID}` : undefined;
}

function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = el;
  for (const name of names) current = current && childOf(current, '', name);
  return current;
}

function text(el: XmlElement | undefined): string {
  return normalizeWhitespace(textOf(el));
}
