import { describe, expect, it } from 'vitest';
import { chemblSource } from '../../sources/chembl/index.js';
import { chemblReplay } from '../fixtures/providers/chemblReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(chemblSource, chemblReplay, (url) => ({ baseUrl: `${url}/chembl/api/data` }));

/** ChEMBL results: the shared checks, and every record's landing page is its compound page. */
const expectChemblResult = (result: SourceToolResult) =>
  expectValidResult(result, chemblSource, { recordUrl: (r) => `https://www.ebi.ac.uk/chembl/explore/compound/${r.sourceRecordId}` });

describeSourceContract(chemblSource, { tools: ['get', 'search'] });

describe('ChEMBL source: registration', () => {
  it('is published under CC BY-SA 3.0', () => {
    expect(chemblSource.manifest.license).toContain('CC BY-SA 3.0');
  });
});

describe('ChEMBL get', () => {
  it('returns name, max phase, structures, parsed properties and an SDF candidate (constructed molecule)', async () => {
    const out = expectChemblResult(await source.call('get', { id: 'chembl25' }));
    expect(source.requests.slice(-2)).toEqual([
      '/chembl/api/data/molecule/CHEMBL25.json',
      '/chembl/api/data/mechanism.json?molecule_chembl_id=CHEMBL25&limit=100',
    ]);
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'chembl:CHEMBL25',
      kind: 'compound',
      title: 'ASPIRIN',
      url: 'https://www.ebi.ac.uk/chembl/explore/compound/CHEMBL25',
      identifiers: { chembl: 'CHEMBL25', inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
    });
    expect(record.citation.url).toBe(record.url);
    expect(record.fields).toMatchObject({
      preferredName: 'ASPIRIN',
      maxPhase: 4,
      firstApproval: 1950,
      structures: { canonicalSmiles: 'CC(=O)Oc1ccccc1C(=O)O', standardInchiKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
      properties: { fullMolecularWeight: 180.16, alogp: 1.31, hydrogenBondAcceptors: 3, polarSurfaceArea: 63.6, molecularFormula: 'C9H8O4' },
      mechanisms: [],
    });
    expect(out.artifacts).toEqual([
      expect.objectContaining({ url: 'https://www.ebi.ac.uk/chembl/api/data/molecule/CHEMBL25.sdf', kind: 'sdf', filename: 'CHEMBL25.sdf' }),
    ]);
  });

  it('gives a biologic its mechanisms (real capture) and no SDF candidate', async () => {
    const out = expectChemblResult(await source.call('get', { id: 'CHEMBL3137343' }));
    const record = out.records[0];
    expect(record.title).toBe('PEMBROLIZUMAB');
    expect(record.fields).toMatchObject({ moleculeType: 'Antibody', maxPhase: 4, structures: null, properties: null });
    expect(record.fields.mechanisms).toEqual([
      {
        mechanismOfAction: 'Programmed cell death protein 1 inhibitor',
        actionType: 'INHIBITOR',
        targetChemblId: 'CHEMBL3307223',
        maxPhase: 4,
        references: [{ type: 'FDA', id: 'label/2014/125514lbl.pdf', url: 'http://www.accessdata.fda.gov/drugsatfda_docs/label/2014/125514lbl.pdf' }],
      },
    ]);
    expect(out.artifacts).toBeUndefined();
  });

  it('an unknown id is not_found; a malformed id is rejected before any request', async () => {
    expectToolError(await source.call('get', { id: 'CHEMBL999' }), 'not_found', false);
    await source.expectNoRequests(async () => {
      for (const id of ['25', 'CHEMBL', 'CHEMBL25x', 'CHEMBL25/../x']) {
        const error = expectToolError(await source.call('get', { id }), 'invalid_input');
        expect(error.message.startsWith('id:')).toBe(true);
      }
    });
  });
});

describe('ChEMBL search and paging (constructed pages)', () => {
  it('follows the relative page_meta.next to the last page', async () => {
    const first = expectChemblResult(await source.call('search', { query: 'aspirin', limit: 1 }));
    expect(source.requestParams()).toEqual({ q: 'aspirin', limit: '1', offset: '0' });
    expect(first.records.map((r: any) => r.id)).toEqual(['chembl:CHEMBL25']);
    expect(first.records[0].fields.searchScore).toBe(17.25);
    expect(first.data).toEqual({
      totalCount: 2,
      offset: 0,
      limit: 1,
      nextCursor: '/chembl/api/data/molecule/search.json?limit=1&offset=1&q=aspirin',
    });

    const second = expectChemblResult(await source.call('search', { query: 'aspirin', cursor: first.data.nextCursor }));
    // The request is ChEMBL's own next link, resolved against the configured host.
    expect(source.requests.at(-1)).toBe('/chembl/api/data/molecule/search.json?limit=1&offset=1&q=aspirin');
    expect(second.records.map((r: any) => r.id)).toEqual(['chembl:CHEMBL999999999']);
    expect(second.data.nextCursor).toBeNull();
  });

  it('an empty search is records: [] without an error', async () => {
    const out = expectChemblResult(await source.call('search', { query: 'zzzz nothing' }));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ totalCount: 0, nextCursor: null });
  });

  it('rejects a limit above 1000 and foreign or mismatched cursors before any request', async () => {
    const cursors = [
      'https://evil.example/chembl/api/data/molecule/search.json?q=aspirin',
      '//evil.example/chembl/api/data/molecule/search.json?q=aspirin',
      '/chembl/api/data/activity.json?q=aspirin',
      '/chembl/api/data/molecule/search.json?limit=1&offset=1&q=ibuprofen',
    ];
    await source.expectNoRequests(async () => {
      expect((await source.call('search', { query: 'aspirin', limit: 1001 })).isError).toBe(true);
      for (const cursor of cursors) {
        const error = expectToolError(await source.call('search', { query: 'aspirin', cursor }), 'invalid_input');
        expect(error.message.startsWith('cursor:')).toBe(true);
      }
    });
  });
});

describe('ChEMBL provider failures', () => {
  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const error = expectToolError(await source.call('search', { query: 'slow down' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(10_000);
  });

  it('a 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('search', { query: 'maintenance' }), 'upstream_error', true);
  });

  it('a connection cut mid-body and a cut JSON body are both retryable upstream_errors', async () => {
    expectToolError(await source.call('search', { query: 'cut connection' }), 'upstream_error', true);
    expectToolError(await source.call('search', { query: 'cut json' }), 'upstream_error', true);
  });
});
