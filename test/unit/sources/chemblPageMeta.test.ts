import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseChemblPageMeta } from '../../../sources/chembl/parseChembl.js';

const capture = (file: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/sources/chembl/${file}`, import.meta.url)), 'utf8'));

describe('ChEMBL page_meta on real list captures', () => {
  it('keeps next as the host-relative path ChEMBL sends, and parses the counts', () => {
    expect(parseChemblPageMeta(capture('assay-filter-paged-limit1-UNVERIFIED.json'))).toEqual({
      totalCount: 1408,
      offset: 0,
      limit: 1,
      next: '/chembl/api/data/assay.json?limit=1&offset=1&cell_chembl_id=CHEMBL3706573',
    });
  });

  it('has no next page on an empty list or the last page', () => {
    expect(parseChemblPageMeta(capture('cell_line-filter-empty-UNVERIFIED.json'))).toMatchObject({ totalCount: 0, next: null });
    expect(parseChemblPageMeta(capture('mechanism-list-by-molecule.json'))).toMatchObject({ totalCount: 1, next: null });
  });
});
