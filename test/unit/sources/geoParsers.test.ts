import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { accessionOfUid, geoStub, httpsFromFtp, parseGeoAccession } from '../../../sources/geo/geoIds.js';
import { supplementaryLinks } from '../../../sources/geo/geoSoft.js';

const soft = readFileSync(
  fileURLToPath(new URL('../../fixtures/sources/geo/soft-family-GSE105845-with-suppl-link.soft', import.meta.url)),
  'utf8',
);

describe('GEO accessions and uids', () => {
  it('maps each record type to its uid range and back', () => {
    expect(parseGeoAccession('GSE93374')?.uid).toBe('200093374');
    expect(parseGeoAccession('gpl570')).toMatchObject({ accession: 'GPL570', uid: '100000570' });
    expect(parseGeoAccession('GSM2452128')?.uid).toBe('302452128');
    expect(parseGeoAccession('GDS5070')?.uid).toBe('5070');
    for (const acc of ['GSE93374', 'GPL570', 'GSM2452128', 'GDS5070']) {
      expect(accessionOfUid(parseGeoAccession(acc)!.uid)).toBe(acc);
    }
    expect(parseGeoAccession('GSE')).toBeUndefined();
    expect(parseGeoAccession('GSE123456789')).toBeUndefined();
  });

  it('builds the nnn folder stub from the last three digits', () => {
    expect(geoStub(parseGeoAccession('GSE93374')!)).toBe('GSE93nnn');
    expect(geoStub(parseGeoAccession('GSE1234')!)).toBe('GSE1nnn');
    expect(geoStub(parseGeoAccession('GSE123')!)).toBe('GSEnnn');
  });

  it('rewrites NCBI ftp links to https and refuses other hosts', () => {
    expect(httpsFromFtp('ftp://ftp.ncbi.nlm.nih.gov/geo/series/GSE93nnn/GSE93374/')).toBe(
      'https://ftp.ncbi.nlm.nih.gov/geo/series/GSE93nnn/GSE93374/',
    );
    expect(httpsFromFtp('ftp://ftp-trace.ncbi.nlm.nih.gov/sra/x')).toBeUndefined();
    expect(httpsFromFtp('ftp://evil.example/ftp.ncbi.nlm.nih.gov/x')).toBeUndefined();
  });
});

describe('SOFT supplementary lines', () => {
  it('reads the lines of the asked entity only', () => {
    expect(supplementaryLinks(soft, parseGeoAccession('GSE105845')!)).toEqual([
      'ftp://ftp.ncbi.nlm.nih.gov/geo/series/GSE105nnn/GSE105845/suppl/GSE105845_RAW.tar',
    ]);
    expect(supplementaryLinks(soft, parseGeoAccession('GSE1')!)).toEqual([]);
    const sample = '^SAMPLE = GSM1\n!Sample_supplementary_file_1 = ftp://ftp.ncbi.nlm.nih.gov/a.gz\n!Sample_supplementary_file_2 = NONE\n';
    expect(supplementaryLinks(sample, parseGeoAccession('GSM1')!)).toEqual(['ftp://ftp.ncbi.nlm.nih.gov/a.gz']);
  });
});
