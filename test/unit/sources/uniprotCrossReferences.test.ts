import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseUniprotEntry } from '../../../sources/uniprot/parseUniprotEntry.js';

const entry = JSON.parse(readFileSync(new URL('../../fixtures/sources/uniprot/entry-A4Q9F3.json', import.meta.url), 'utf8'));

describe('UniProt cross-references grouped by database', () => {
  it('keeps a database whose name is also an Object property ("constructor", "__proto__") as one more group', () => {
    const refs = [...entry.uniProtKBCrossReferences, { database: 'constructor', id: 'C1' }, { database: '__proto__', id: 'P1' }, { database: '__proto__', id: 'P2' }];
    const parsed = parseUniprotEntry({ ...entry, uniProtKBCrossReferences: refs });
    expect(Object.getOwnPropertyDescriptor(parsed.crossReferences, 'constructor')?.value).toEqual(['C1']);
    expect(Object.getOwnPropertyDescriptor(parsed.crossReferences, '__proto__')?.value).toEqual(['P1', 'P2']);
    expect(Object.getPrototypeOf(parsed.crossReferences)).toBe(Object.prototype);
    expect(parsed.crossReferenceCount).toBe(refs.length);
  });
});
