import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../../../sources/shared/index.js';
import { clinvarDate, parseClinvarId } from '../../../sources/clinvar/clinvarIds.js';
import { parseClinvarSummary } from '../../../sources/clinvar/parseClinvarSummary.js';
import { parseVariationArchives } from '../../../sources/clinvar/parseVariationArchive.js';

const fixture = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/sources/clinvar/${file}`, import.meta.url)), 'utf8');

describe('parseVariationArchives', () => {
  it('reads the captured weekly-release record the same as the EFetch envelope around it', () => {
    const [release] = parseVariationArchives(parseXml(fixture('vcv-record-ftp-release-VCV000000002.xml'), 'ClinVar'));
    const [efetch] = parseVariationArchives(parseXml(fixture('constructed-efetch-vcv-VCV000000002.xml'), 'ClinVar'));
    expect(efetch).toEqual(release);
    expect(release).toMatchObject({
      variationId: '2',
      accession: 'VCV000000002',
      version: '3',
      variantType: 'Indel',
      recordStatus: 'current',
      genes: [{ symbol: 'AP5Z1', geneId: '9907' }],
      dbsnp: 'rs397704705',
      lastUpdated: '2022-04-25',
      molecularConsequences: ['5 prime UTR variant', 'nonsense', 'non-coding transcript variant'],
    });
    expect(release!.hgvs).toHaveLength(10);
  });

  it('reads somatic clinical impact and oncogenicity classifications (constructed from the VCV 2.0 schema)', () => {
    const xml = `<ClinVarResult-Set><VariationArchive VariationID="12345" Accession="VCV000012345" Version="1" VariationName="x">
      <ClassifiedRecord><SimpleAllele><Name>x</Name></SimpleAllele><Classifications>
        <SomaticClinicalImpact><ReviewStatus>criteria provided, single submitter</ReviewStatus>
          <Description ClinicalImpactAssertionType="therapeutic" DateLastEvaluated="2023-05-01">Tier I - Strong</Description>
          <ConditionList><TraitSet><Trait><Name><ElementValue Type="Preferred">Lung adenocarcinoma</ElementValue></Name></Trait></TraitSet></ConditionList>
        </SomaticClinicalImpact>
        <OncogenicityClassification><ReviewStatus>criteria provided, single submitter</ReviewStatus><Description>Oncogenic</Description></OncogenicityClassification>
      </Classifications></ClassifiedRecord></VariationArchive></ClinVarResult-Set>`;
    const [variant] = parseVariationArchives(parseXml(xml, 'ClinVar'));
    expect(variant!.germline).toBeUndefined();
    expect(variant!.somatic).toEqual({
      description: 'Tier I - Strong',
      reviewStatus: 'criteria provided, single submitter',
      lastEvaluated: '2023-05-01',
      conditions: ['Lung adenocarcinoma'],
    });
    expect(variant!.oncogenicity?.description).toBe('Oncogenic');
  });

  it('an unexpected root is a provider error', () => {
    expect(() => parseVariationArchives(parseXml('<html><body/></html>', 'ClinVar'))).toThrow(/VCV XML/);
  });
});

describe('parseClinvarSummary', () => {
  it('drops the empty classifications NCBI keeps with the 1/01/01 sentinel', () => {
    const body = JSON.parse(fixture('constructed-esummary-2-and-missing.json'));
    const variant = parseClinvarSummary(body.result['2']);
    expect(variant.somatic).toBeUndefined();
    expect(variant.oncogenicity).toBeUndefined();
    expect(variant.germline?.lastEvaluated).toBe('2010-06-29');
    expect(variant.submissionCount).toBe(2);
  });

  it('a document without a uid is an upstream_error', () => {
    expect(() => parseClinvarSummary({ title: 'x' })).toThrow(/ESummary document/);
  });
});

describe('ClinVar ids', () => {
  it('normalizes zero-padding both ways and keeps an asked version', () => {
    expect(parseClinvarId('14206')).toEqual({ variationId: '14206', accession: 'VCV000014206' });
    expect(parseClinvarId('VCV000014206.5')).toEqual({ variationId: '14206', accession: 'VCV000014206', version: '5' });
    expect(parseClinvarId(' vcv14206 ')?.accession).toBe('VCV000014206');
    expect(parseClinvarId('VCV0000142061')).toBeUndefined();
    expect(parseClinvarId('RCV000000010')).toBeUndefined();
  });

  it('reads ClinVar dates and ignores the sentinel', () => {
    expect(clinvarDate('2015/08/10 00:00')).toBe('2015-08-10');
    expect(clinvarDate('1/01/01 00:00')).toBeUndefined();
  });
});
