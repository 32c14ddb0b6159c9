import { describe, expect, it } from 'vitest';
import { findDoi, paperMetadata, parsePdfDate, splitAuthors } from '../../../gateway/extraction/paperMetadata.js';

describe('paperMetadata', () => {
  it('finds a DOI without the sentence punctuation after it', () => {
    expect(findDoi('see https://doi.org/10.1234/abc.def-1(2).')).toBe('10.1234/abc.def-1(2)');
    expect(findDoi('(see 10.1234/abc.def).')).toBe('10.1234/abc.def');
    expect(findDoi('DOI: 10.48550/arXiv.2401.00001, accessed')).toBe('10.48550/arXiv.2401.00001');
    expect(findDoi('no identifier here 10.12/x')).toBeNull();
  });

  it('prefers a DOI in the metadata (info or XMP) over one on page 1', () => {
    expect(paperMetadata({ Subject: 'doi:10.1000/from-info' }, null, '10.1000/from-page')).toMatchObject({ doi: '10.1000/from-info', doiSource: 'metadata' });
    expect(paperMetadata({}, '<x:xmpmeta><prism:doi>10.1000/from-xmp</prism:doi></x:xmpmeta>', '')).toMatchObject({ doi: '10.1000/from-xmp', doiSource: 'metadata' });
    expect(paperMetadata({}, null, 'https://doi.org/10.1000/from-page.')).toMatchObject({ doi: '10.1000/from-page', doiSource: 'first_page' });
    expect(paperMetadata({}, null, 'nothing')).toMatchObject({ doi: null, doiSource: null, title: null, authors: [], creationDate: null });
  });

  it('splits authors on semicolons, else on commas and "and"', () => {
    expect(splitAuthors('Ada Lovelace; Alan Turing')).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect(splitAuthors('Zoë Brontë, Jürgen Groß and Mary Shelley')).toEqual(['Zoë Brontë', 'Jürgen Groß', 'Mary Shelley']);
    expect(splitAuthors(undefined)).toEqual([]);
  });

  it('reads PDF dates with and without a time zone', () => {
    expect(parsePdfDate("D:20240305102030+01'00'")).toBe('2024-03-05T09:20:30.000Z');
    expect(parsePdfDate('D:20240305102030Z')).toBe('2024-03-05T10:20:30.000Z');
    expect(parsePdfDate('D:2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(parsePdfDate('yesterday')).toBeNull();
  });
});
